import type { RequestDetail, SessionView, VerificationCaseView } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { labelOf, VERIFICATION_LEVEL_LABELS, VERIFICATION_METHOD_LABELS, VERIFICATION_REJECTION_LABELS } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { ACT_PERMISSION, ACTION_SPECS } from '../actions';
import { formatBytes, isPreviewable, shortHash } from './files';
import { dataUrlOf, saveAs } from './transfer';
import { CASE_STATUS_LABELS, EVIDENCE_READ_PERMISSION, EVIDENCE_STATUS_LABELS, isNoCase } from './verification';
import { FormButtons } from '../../components/FormButtons';

type EvidenceFile = VerificationCaseView['evidence'][number]['files'][number];

export interface TabProps {
  detail: RequestDetail;
  session: SessionView;
  reload: () => void;
}

const requestPath = (id: string) => `/requests/${encodeURIComponent(id)}`;

/** The request's identity verification: its case (status, level, method, due), the evidence files, and the decision. */
export function VerificationTab({ detail, session, reload }: TabProps) {
  const { api } = useAuth();
  const loaded = useApiGet<VerificationCaseView>(`${requestPath(detail.id)}/verification-case`);
  const [done, setDone] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const canAct = session.permissions.includes(ACT_PERMISSION);
  const allowed = detail.allowedActions ?? [];

  const changed = (what: string) => {
    setDone(what);
    loaded.reload();
    reload();
  };

  const openCase = async () => {
    setBusy(true);
    setProblem(null);
    const result = await api.post(`${requestPath(detail.id)}/verification/request`, {});
    setBusy(false);
    if (result.ok) changed('A verification case was opened.');
    else setProblem(result.problem);
  };

  const { result } = loaded;
  return (
    <div class="tab-verification">
      <h3>Identity verification</h3>
      <p role="status" class="done">
        {done}
      </p>
      {!result ? <p role="status">Loading the verification case…</p> : null}
      {result && !result.ok && isNoCase(result.problem) ? (
        <>
          <p>No verification case: the requester's identity was not asked for.</p>
          {canAct && allowed.includes('request_verification') ? (
            <div class="form-buttons">
              <button type="button" onClick={openCase} disabled={busy}>
                Open a verification case
              </button>
            </div>
          ) : null}
          {problem ? <ProblemView problem={problem} context="The case could not be opened" /> : null}
        </>
      ) : null}
      {result && !result.ok && !isNoCase(result.problem) ? <ProblemView problem={result.problem} context="The verification case could not be read" /> : null}
      {result?.ok ? (
        <>
          <CaseFacts verification={result.data} />
          <EvidenceList verification={result.data} canDownload={session.permissions.includes(EVIDENCE_READ_PERMISSION)} />
          {canAct && result.data.status === 'pending' && allowed.includes('approve_verification') ? <DecisionForm requestId={detail.id} onDone={(outcome) => changed(`Identity ${outcome}.`)} /> : null}
        </>
      ) : null}
    </div>
  );
}

function CaseFacts({ verification }: { verification: VerificationCaseView }) {
  const decision = verification.decision;
  return (
    <dl class="facts">
      <div>
        <dt>Status</dt>
        <dd>{labelOf(CASE_STATUS_LABELS, verification.status)}</dd>
      </div>
      <div>
        <dt>Level</dt>
        <dd>{labelOf(VERIFICATION_LEVEL_LABELS, verification.level)}</dd>
      </div>
      <div>
        <dt>Method</dt>
        <dd>{labelOf(VERIFICATION_METHOD_LABELS, verification.method)}</dd>
      </div>
      <div>
        <dt>Requested</dt>
        <dd>
          <DateTime value={verification.requestedAt} /> by {verification.requestedBy}
        </dd>
      </div>
      <div>
        <dt>Due</dt>
        <dd>{verification.expiresAt ? <DateTime value={verification.expiresAt} /> : 'No expiry'}</dd>
      </div>
      <div>
        <dt>Clock</dt>
        <dd>{verification.pauseClock ? 'Paused while identity is checked' : 'Runs on'}</dd>
      </div>
      {decision ? (
        <div>
          <dt>Decision</dt>
          <dd>
            {labelOf(CASE_STATUS_LABELS, decision.outcome)} by {decision.by} on <DateTime value={decision.at} />
            {decision.method ? `, ${labelOf(VERIFICATION_METHOD_LABELS, decision.method).toLowerCase()}` : ''}
            {decision.reason ? `: ${labelOf(VERIFICATION_REJECTION_LABELS, decision.reason).toLowerCase()}` : ''}
            {decision.note ? <span class="muted"> ({decision.note})</span> : null}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

function EvidenceList({ verification, canDownload }: { verification: VerificationCaseView; canDownload: boolean }) {
  const files = verification.evidence.flatMap((evidence) => evidence.files.map((file) => ({ file, status: evidence.status })));
  const external = verification.evidence.flatMap((evidence) => evidence.artifacts.flatMap((a) => (a.type === 'external' ? [a] : [])));
  return (
    <section aria-labelledby="evidence-heading">
      <h4 id="evidence-heading">Evidence</h4>
      {files.length === 0 && external.length === 0 ? <p class="muted">No evidence received yet.</p> : null}
      {files.length > 0 ? (
        <table class="queue" aria-label="Evidence files">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">SHA-256</th>
              <th scope="col">Received</th>
              <th scope="col">Review</th>
              {canDownload ? <th scope="col">File</th> : null}
            </tr>
          </thead>
          <tbody>
            {files.map(({ file, status }) => (
              <EvidenceRow key={file.artifactKey} requestId={verification.requestId} file={file} status={status} canDownload={canDownload} />
            ))}
          </tbody>
        </table>
      ) : null}
      {external.length > 0 ? (
        <ul>
          {external.map((a, i) => (
            <li key={i}>
              Held in <strong>{a.system}</strong>: {a.reference}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function EvidenceRow({ requestId, file, status, canDownload }: { requestId: string; file: EvidenceFile; status: keyof typeof EVIDENCE_STATUS_LABELS; canDownload: boolean }) {
  const { api } = useAuth();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `${requestPath(requestId)}/verification/evidence/${encodeURIComponent(file.artifactKey)}/download`;

  const fetchFile = async (then: (bytes: Blob) => Promise<void> | void) => {
    setBusy(true);
    setProblem(null);
    const result = await api.readBytes(path);
    setBusy(false);
    if (result.ok) await then(result.data);
    else setProblem(result.problem);
  };

  return (
    <tr>
      <td data-label="Name">{file.filename}</td>
      <td data-label="Type">{file.contentType}</td>
      <td data-label="Size">{formatBytes(file.size)}</td>
      <td data-label="SHA-256">
        <code title={file.sha256}>{shortHash(file.sha256)}</code>
      </td>
      <td data-label="Received">
        <DateTime value={file.uploadedAt} /> by {file.uploadedBy}
      </td>
      <td data-label="Review">{labelOf(EVIDENCE_STATUS_LABELS, status)}</td>
      {canDownload ? (
        <td data-label="File">
          <div class="form-buttons">
            <button type="button" disabled={busy} onClick={() => fetchFile((bytes) => saveAs(bytes, file.filename))}>
              Download<span class="visually-hidden"> {file.filename}</span>
            </button>
            {isPreviewable(file.contentType) ? (
              <button
                type="button"
                disabled={busy}
                aria-expanded={preview ? 'true' : 'false'}
                onClick={() => (preview ? setPreview(null) : fetchFile(async (bytes) => setPreview(await dataUrlOf(bytes))))}
              >
                {preview ? 'Hide preview' : 'Preview'}
                <span class="visually-hidden"> {file.filename}</span>
              </button>
            ) : null}
          </div>
          {preview ? <img class="evidence-preview" src={preview} alt={`Preview of ${file.filename}`} width={240} /> : null}
          {problem ? <ProblemView problem={problem} context="The file could not be read" /> : null}
        </td>
      ) : null}
    </tr>
  );
}

const APPROVE = ACTION_SPECS.find((s) => s.action === 'approve_verification');
const REJECT = ACTION_SPECS.find((s) => s.action === 'reject_verification');

/** Approve or reject the identity: the same commands as the actions panel's, in one form beside the evidence. */
function DecisionForm({ requestId, onDone }: { requestId: string; onDone: (outcome: 'approved' | 'rejected') => void }) {
  const { api } = useAuth();
  const [decision, setDecision] = useState<'approve' | 'reject'>('approve');
  const [method, setMethod] = useState('');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const spec = decision === 'approve' ? APPROVE : REJECT;
    if (busy || !spec) return;
    setBusy(true);
    setProblem(null);
    const body = decision === 'approve' ? spec.body({ method, note }) : spec.body({ reason, message: note });
    const result = await api.post(spec.path(requestId), body);
    setBusy(false);
    if (result.ok) onDone(decision === 'approve' ? 'approved' : 'rejected');
    else setProblem(result.problem);
  };

  return (
    <form class="action-form" onSubmit={submit} noValidate aria-labelledby="verification-decision-heading">
      <h4 id="verification-decision-heading">Decision</h4>
      <div class="field">
        <label for="verification-decision">Decision</label>
        <select id="verification-decision" value={decision} onChange={(e) => setDecision(e.currentTarget.value === 'reject' ? 'reject' : 'approve')}>
          <option value="approve">Approve: identity verified</option>
          <option value="reject">Reject: the request is refused</option>
        </select>
      </div>
      {decision === 'approve' ? (
        <div class="field">
          <label for="verification-method">How identity was established</label>
          <select id="verification-method" value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
            <option value="">The case's method</option>
            {Object.entries(VERIFICATION_METHOD_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div class="field">
          <label for="verification-reason">Reason</label>
          <select id="verification-reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
            <option value="">Insufficient evidence (default)</option>
            {Object.entries(VERIFICATION_REJECTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="field">
        <label for="verification-note">{decision === 'approve' ? 'Note' : 'What the person is told'}</label>
        <textarea id="verification-note" rows={3} maxLength={decision === 'approve' ? 2000 : 10_000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </div>
      {problem ? <ProblemView problem={problem} context="The decision was refused" /> : null}
      <FormButtons submit="Record decision" busy={busy} />
    </form>
  );
}
