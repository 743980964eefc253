import type { AuditExport, AuditExportFormat, AuditVerifyCommand, AuditVerifyResult, RequestDetail, SessionView } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { ProblemView } from '../../components/ProblemView';
import type { Problem } from '../../problem';
import { AUDIT_EXPORT_PERMISSION, AUDIT_VERIFY_PERMISSION, type AuditFile, auditFileOf, headCommand, heldHashCommand, type VerifyOutcome, verifyOutcomeOf } from './audit-chain';

interface TabProps {
  detail: RequestDetail;
  session: SessionView;
  reload: () => void;
}

/** Saves a file the page holds: a link to a Blob, clicked (no navigation, nothing inline for the CSP to refuse). */
function saveFile(file: AuditFile): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  // The browser has read the Blob once the click's download started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type Verified = { outcome: VerifyOutcome; command: AuditVerifyCommand };

/** The request's audit chain: download it as a file, and verify it (its head, or a hash the user holds). */
export function AuditTab({ detail, session }: TabProps) {
  const { api } = useAuth();
  const base = `/requests/${encodeURIComponent(detail.id)}/audit`;
  const mayExport = session.permissions.includes(AUDIT_EXPORT_PERMISSION);
  const mayVerify = session.permissions.includes(AUDIT_VERIFY_PERMISSION);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ context: string; problem: Problem } | null>(null);
  const [saved, setSaved] = useState('');
  const [verified, setVerified] = useState<Verified | null>(null);
  const [held, setHeld] = useState({ sequence: '', hash: '' });
  const [heldError, setHeldError] = useState<string | null>(null);

  const exportAs = (format: AuditExportFormat) => api.get<AuditExport>(`${base}/export`, new URLSearchParams(format === 'csv' ? { format } : {}));

  const download = async (format: AuditExportFormat) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setSaved('');
    const result = await exportAs(format);
    setBusy(false);
    if (!result.ok) {
      setProblem({ context: 'The audit chain could not be exported', problem: result.problem });
      return;
    }
    const file = auditFileOf(result.data, format);
    saveFile(file);
    setSaved(`Saved ${file.name}: ${result.data.events.length} entries, head ${result.data.rootHash}.`);
  };

  const verify = async (command: AuditVerifyCommand) => {
    const result = await api.post<AuditVerifyResult>(`${base}/verify`, command);
    if (!result.ok) {
      setProblem({ context: 'The audit chain could not be verified', problem: result.problem });
      return;
    }
    setVerified({ outcome: verifyOutcomeOf(result.data), command });
  };

  const verifyHead = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setVerified(null);
    const head = await exportAs('jsonl');
    if (!head.ok) {
      setBusy(false);
      setProblem({ context: "The chain's head could not be read", problem: head.problem });
      return;
    }
    const command = headCommand(head.data);
    if (command) await verify(command);
    else setProblem({ context: 'Nothing to verify', problem: { status: 0, title: 'The chain has no entry', detail: null, code: null } });
    setBusy(false);
  };

  const verifyHeld = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const parsed = heldHashCommand(held);
    setHeldError('error' in parsed ? parsed.error : null);
    if ('error' in parsed) return;
    setBusy(true);
    setProblem(null);
    setVerified(null);
    await verify(parsed.command);
    setBusy(false);
  };

  return (
    <div class="tab-body">
      {mayExport ? (
        <section aria-labelledby="audit-export-heading">
          <h3 id="audit-export-heading">Export</h3>
          <p class="muted">The chain up to its head, with every entry's hash: check it offline as docs/audit.md shows.</p>
          <div class="form-buttons">
            <button type="button" onClick={() => void download('jsonl')} disabled={busy}>
              Download as JSON
            </button>
            <button type="button" onClick={() => void download('csv')} disabled={busy}>
              Download as CSV
            </button>
          </div>
          <p role="status" class="done">
            {saved}
          </p>
        </section>
      ) : null}
      {mayVerify ? (
        <section aria-labelledby="audit-verify-heading">
          <h3 id="audit-verify-heading">Verify</h3>
          {mayExport ? (
            <div class="form-buttons">
              <button type="button" class="primary" onClick={() => void verifyHead()} disabled={busy}>
                Verify the chain
              </button>
            </div>
          ) : null}
          <form class="action-form" onSubmit={verifyHeld} noValidate aria-labelledby="audit-held-heading">
            <h4 id="audit-held-heading">Against a hash you hold</h4>
            <div class="field">
              <label for="audit-held-sequence">Entry (sequence)</label>
              <input
                id="audit-held-sequence"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                maxLength={9}
                value={held.sequence}
                onInput={(e) => setHeld({ ...held, sequence: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for="audit-held-hash">Hash</label>
              <input
                id="audit-held-hash"
                type="text"
                autoComplete="off"
                spellcheck={false}
                maxLength={80}
                placeholder="sha256:…"
                aria-invalid={heldError ? 'true' : undefined}
                aria-describedby={heldError ? 'audit-held-error' : undefined}
                value={held.hash}
                onInput={(e) => setHeld({ ...held, hash: e.currentTarget.value })}
              />
            </div>
            {heldError ? (
              <p id="audit-held-error" class="field-error">
                {heldError}
              </p>
            ) : null}
            <div class="form-buttons">
              <button type="submit" disabled={busy}>
                Verify this hash
              </button>
            </div>
          </form>
        </section>
      ) : null}
      {!mayExport && !mayVerify ? <p class="muted">Your roles do not include the audit chain.</p> : null}
      {problem ? <ProblemView problem={problem.problem} context={problem.context} /> : null}
      <div role="status" class="audit-outcome">
        {busy ? <p class="muted">Working…</p> : null}
        {verified ? (
          <div class={verified.outcome.valid ? 'notice' : 'problem'}>
            <p>
              <strong>{verified.outcome.headline}</strong>
            </p>
            <p class="muted">
              Entry {verified.command.sequence}, hash <code>{verified.command.hash}</code>
            </p>
            {verified.outcome.findings.length > 0 ? (
              <ul>
                {verified.outcome.findings.map((f, i) => (
                  <li key={i}>{f}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
