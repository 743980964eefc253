import type { ArtifactRecord, ArtifactType, ManifestView } from '@dsar/contracts';
import { useRef, useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { keysOf, labelOf, OPEN_STATUSES } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { ACT_PERMISSION } from '../actions';
import { ARTIFACT_TYPE_LABELS, artifactUploadHeaders, formatBytes, mediaTypeOf, shortHash } from './files';
import { FOUR_EYES_CODE, manifestStateWords, reviewable, reviewWords } from './manifest';
import { saveAs } from './transfer';
import type { TabProps } from './VerificationTab';

const manifestPath = (id: string) => `/requests/${encodeURIComponent(id)}/manifest`;

/** What downloading an artifact for review needs (the route table). */
const ARTIFACTS_READ_PERMISSION = 'artifacts:read';

/** The fulfilment manifest: its artifacts, an upload, a replacement (a redaction), and the four-eyes review. */
export function ManifestTab({ detail, session, reload }: TabProps) {
  const loaded = useApiGet<ManifestView>(manifestPath(detail.id));
  const [done, setDone] = useState('');
  const [replacing, setReplacing] = useState<string | null>(null);
  const canAct = session.permissions.includes(ACT_PERMISSION);
  const canDownload = session.permissions.includes(ARTIFACTS_READ_PERMISSION);
  // Files go to a manifest only while the request is open (the API refuses them after).
  const open = OPEN_STATUSES.includes(detail.status);
  const { result } = loaded;

  const changed = (words: string) => {
    setDone(words);
    setReplacing(null);
    loaded.reload();
    reload();
  };

  const manifest = result?.ok ? result.data : null;
  const replaced = manifest?.artifacts.find((a) => a.artifactId === replacing) ?? null;
  return (
    <div class="tab-manifest">
      <h3>Manifest and review</h3>
      <p role="status" class="done">
        {done}
      </p>
      {!result ? <p role="status">Loading the manifest…</p> : null}
      {result && !result.ok ? <ProblemView problem={result.problem} context="The manifest could not be read" /> : null}
      {manifest ? (
        <>
          <dl class="facts">
            <div>
              <dt>Manifest</dt>
              <dd>{manifestStateWords(manifest)}</dd>
            </div>
            {manifest.review ? (
              <div>
                <dt>Latest review</dt>
                <dd>
                  {reviewWords(manifest.review)} on <DateTime value={manifest.review.at} />
                  {manifest.review.comment ? <span class="muted"> ({manifest.review.comment})</span> : null}
                </dd>
              </div>
            ) : null}
          </dl>
          <Artifacts manifest={manifest} canAct={canAct && open} canDownload={canDownload} replacing={replacing} onReplace={setReplacing} />
          {replaced ? <ReplaceForm key={replaced.artifactId} requestId={detail.id} artifact={replaced} onCancel={() => setReplacing(null)} onDone={changed} /> : null}
          {canAct && open ? <UploadForm requestId={detail.id} onDone={changed} /> : null}
          {canAct && reviewable(manifest) ? <ReviewForm requestId={detail.id} version={manifest.version} onDone={changed} /> : null}
        </>
      ) : null}
    </div>
  );
}

function Artifacts({
  manifest,
  canAct,
  canDownload,
  replacing,
  onReplace,
}: {
  manifest: ManifestView;
  canAct: boolean;
  canDownload: boolean;
  replacing: string | null;
  onReplace: (artifactId: string | null) => void;
}) {
  if (manifest.artifacts.length === 0) return <p class="muted">No artifact yet.</p>;
  return (
    <table class="queue" aria-label="Artifacts">
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Type</th>
          <th scope="col">Size</th>
          <th scope="col">SHA-256</th>
          <th scope="col">Version</th>
          <th scope="col">Changed</th>
          {canAct || canDownload ? <th scope="col">Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {manifest.artifacts.map((artifact) => (
          <ArtifactRow
            key={artifact.artifactId}
            requestId={manifest.requestId}
            artifact={artifact}
            canAct={canAct}
            canDownload={canDownload}
            replacing={replacing === artifact.artifactId}
            onReplace={onReplace}
          />
        ))}
      </tbody>
    </table>
  );
}

function ArtifactRow({
  requestId,
  artifact,
  canAct,
  canDownload,
  replacing,
  onReplace,
}: {
  requestId: string;
  artifact: ArtifactRecord;
  canAct: boolean;
  canDownload: boolean;
  replacing: boolean;
  onReplace: (artifactId: string | null) => void;
}) {
  const { api } = useAuth();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const purged = artifact.purgedAt !== null;

  const download = async () => {
    setBusy(true);
    setProblem(null);
    const query = new URLSearchParams({ artifactId: artifact.artifactId });
    const result = await api.readBytes(`${manifestPath(requestId)}/artifact/download?${query.toString()}`);
    setBusy(false);
    if (result.ok) saveAs(result.data, artifact.versionFilename);
    else setProblem(result.problem);
  };

  return (
    <tr>
      <td data-label="File">
        <strong>{artifact.title}</strong>
        {artifact.title !== artifact.filename ? <span class="muted"> ({artifact.filename})</span> : null}
        {artifact.systemKey ? <span class="tag">from {artifact.systemKey}</span> : null}
        {artifact.redactionsApplied.length > 0 ? (
          <ul class="muted">
            {artifact.redactionsApplied.map((r) => (
              <li key={r.version}>
                Replaced (version {r.version}) by {r.by}
                {r.reason ? `: ${r.reason}` : ''}
              </li>
            ))}
          </ul>
        ) : null}
      </td>
      <td data-label="Type">
        {labelOf(ARTIFACT_TYPE_LABELS, artifact.type)} <span class="muted">({artifact.contentType})</span>
      </td>
      <td data-label="Size">{formatBytes(artifact.size)}</td>
      <td data-label="SHA-256">
        <code title={artifact.sha256}>{shortHash(artifact.sha256)}</code>
      </td>
      <td data-label="Version">{artifact.version}</td>
      <td data-label="Changed">
        <DateTime value={artifact.updatedAt} /> by {artifact.updatedBy}
      </td>
      {canAct || canDownload ? (
        <td data-label="Actions">
          {purged ? (
            <span class="muted">Deleted by retention</span>
          ) : (
            <div class="form-buttons">
              {canDownload ? (
                <button type="button" disabled={busy} onClick={download}>
                  Download<span class="visually-hidden"> {artifact.title}</span>
                </button>
              ) : null}
              {canAct ? (
                <button
                  type="button"
                  aria-expanded={replacing ? 'true' : 'false'}
                  aria-controls={replacing ? 'replace-form' : undefined}
                  onClick={() => onReplace(replacing ? null : artifact.artifactId)}
                >
                  Replace<span class="visually-hidden"> {artifact.title}</span>
                </button>
              ) : null}
            </div>
          )}
          {problem ? <ProblemView problem={problem} context="The file could not be read" /> : null}
        </td>
      ) : null}
    </tr>
  );
}

/** The chosen file of a file input, if any. */
const fileOf = (input: HTMLInputElement | null): File | null => input?.files?.[0] ?? null;

function UploadForm({ requestId, onDone }: { requestId: string; onDone: (words: string) => void }) {
  const { api } = useAuth();
  const fileInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [type, setType] = useState<ArtifactType | ''>('');
  const [missing, setMissing] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const file = fileOf(fileInput.current);
    setMissing(!file);
    if (!file) {
      fileInput.current?.focus();
      return;
    }
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const headers = artifactUploadHeaders({ filename: file.name, mediaType: mediaTypeOf(file), title, type });
    const result = await api.sendBytes('POST', `${manifestPath(requestId)}/artifact/upload`, file, headers);
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    if (fileInput.current) fileInput.current.value = '';
    setTitle('');
    setType('');
    onDone(`${file.name} was uploaded; the manifest waits for review.`);
  };

  return (
    <form class="action-form" onSubmit={submit} noValidate aria-labelledby="upload-heading">
      <h4 id="upload-heading">Upload an artifact</h4>
      <div class="field">
        <label for="upload-file">
          File to upload<span class="required"> (required)</span>
        </label>
        <input id="upload-file" name="file" type="file" ref={fileInput} required aria-invalid={missing ? 'true' : undefined} aria-describedby={missing ? 'upload-file-missing' : undefined} />
        {missing ? (
          <p id="upload-file-missing" class="field-error">
            Choose a file.
          </p>
        ) : null}
      </div>
      <div class="field">
        <label for="upload-title">Title</label>
        <input id="upload-title" type="text" maxLength={300} autoComplete="off" value={title} onInput={(e) => setTitle(e.currentTarget.value)} aria-describedby="upload-title-hint" />
        <p id="upload-title-hint" class="hint">
          Shown to reviewers and the data subject; default the file's name.
        </p>
      </div>
      <div class="field">
        <label for="upload-type">What it holds</label>
        <select id="upload-type" value={type} onChange={(e) => setType(e.currentTarget.value as ArtifactType | '')}>
          <option value="">Other (default)</option>
          {keysOf(ARTIFACT_TYPE_LABELS)
            .filter((t) => t !== 'other')
            .map((t) => (
              <option key={t} value={t}>
                {ARTIFACT_TYPE_LABELS[t]}
              </option>
            ))}
        </select>
      </div>
      {problem ? <ProblemView problem={problem} context="The upload was refused" /> : null}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={busy}>
          Upload
        </button>
        {busy ? (
          <span role="status" class="muted">
            Uploading…
          </span>
        ) : null}
      </div>
    </form>
  );
}

function ReplaceForm({ requestId, artifact, onCancel, onDone }: { requestId: string; artifact: ArtifactRecord; onCancel: () => void; onDone: (words: string) => void }) {
  const { api } = useAuth();
  const fileInput = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const file = fileOf(fileInput.current);
    setMissing(!file);
    if (!file) {
      fileInput.current?.focus();
      return;
    }
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const headers = artifactUploadHeaders({ filename: file.name, mediaType: mediaTypeOf(file), redactionReason: reason });
    const result = await api.sendBytes('PUT', `${manifestPath(requestId)}/artifact/${encodeURIComponent(artifact.artifactId)}/replace`, file, headers);
    setBusy(false);
    if (result.ok) onDone(`${artifact.title} was replaced; the manifest waits for review again.`);
    else setProblem(result.problem);
  };

  return (
    <form id="replace-form" class="action-form" onSubmit={submit} noValidate aria-labelledby="replace-heading">
      <h4 id="replace-heading">Replace {artifact.title}</h4>
      <p class="muted">The new file (a redacted copy) becomes version {artifact.version + 1}; the manifest needs a review again.</p>
      <div class="field">
        <label for="replace-file">
          Replacement file<span class="required"> (required)</span>
        </label>
        <input id="replace-file" type="file" ref={fileInput} required aria-invalid={missing ? 'true' : undefined} aria-describedby={missing ? 'replace-file-missing' : undefined} />
        {missing ? (
          <p id="replace-file-missing" class="field-error">
            Choose a file.
          </p>
        ) : null}
      </div>
      <div class="field">
        <label for="replace-reason">What was redacted, and why</label>
        <textarea id="replace-reason" rows={2} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
      </div>
      {problem ? <ProblemView problem={problem} context="The replacement was refused" /> : null}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={busy}>
          Replace file
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ReviewForm({ requestId, version, onDone }: { requestId: string; version: number; onDone: (words: string) => void }) {
  const { api } = useAuth();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  const review = async (action: 'approved' | 'rejected') => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const trimmed = comment.trim();
    // The version read: a manifest changed since is refused (409) rather than approved unseen.
    const result = await api.post(`${manifestPath(requestId)}/validate`, { action, version, ...(trimmed ? { comment: trimmed } : {}) });
    setBusy(false);
    if (result.ok) onDone(`The manifest was ${action}.`);
    else setProblem(result.problem);
  };

  return (
    <form class="action-form" onSubmit={(e) => e.preventDefault()} noValidate aria-labelledby="review-heading">
      <h4 id="review-heading">Review (four eyes)</h4>
      <p class="muted">Someone who uploaded or replaced a file of this manifest may not review it.</p>
      <div class="field">
        <label for="review-comment">Comment</label>
        <textarea id="review-comment" rows={2} maxLength={5000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      </div>
      {problem ? <ProblemView problem={problem} context={problem.code === FOUR_EYES_CODE ? 'You cannot review this manifest' : 'The review was refused'} /> : null}
      <div class="form-buttons">
        <button type="button" class="primary" disabled={busy} onClick={() => review('approved')}>
          Approve manifest
        </button>
        <button type="button" disabled={busy} onClick={() => review('rejected')}>
          Reject manifest
        </button>
      </div>
    </form>
  );
}
