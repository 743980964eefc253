import type { AppealView, RequestDetail, SessionView } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { keysOf } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { ACT_PERMISSION } from '../actions';
import { APPEAL_DECISION_LABELS, appealStateWords, decisionCommand, isOpen } from './appeals';
import { FormButtons } from '../../components/FormButtons';

interface TabProps {
  detail: RequestDetail;
  session: SessionView;
  reload: () => void;
}

/** The appeals against the request's outcome, oldest first; an open one can be decided by a caller who may act. */
export function AppealsTab({ detail, session, reload }: TabProps) {
  const path = `/requests/${encodeURIComponent(detail.id)}/appeals`;
  const appeals = useApiGet<AppealView[]>(path);
  const mayDecide = session.permissions.includes(ACT_PERMISSION);
  const [done, setDone] = useState('');
  const { result, loading } = appeals;
  return (
    <div class="tab-body">
      <p role="status" class="done">
        {done}
      </p>
      {!result ? <p role="status">{loading ? 'Loading the appeals…' : ''}</p> : null}
      {result && !result.ok ? <ProblemView problem={result.problem} context="The appeals could not be read" /> : null}
      {result?.ok && result.data.length === 0 ? <p>No appeal was filed.</p> : null}
      {result?.ok
        ? result.data.map((appeal, i) => (
            <article key={appeal.id} class="action-form" aria-labelledby={`appeal-${appeal.id}`}>
              <h3 id={`appeal-${appeal.id}`}>
                Appeal {i + 1}: {appealStateWords(appeal)}
              </h3>
              <dl class="facts">
                <div>
                  <dt>Filed</dt>
                  <dd>
                    <DateTime value={appeal.createdAt} />
                  </dd>
                </div>
                <div>
                  <dt>Decide by</dt>
                  <dd>
                    <DateTime value={appeal.dueAt} />
                  </dd>
                </div>
                <div>
                  <dt>Message</dt>
                  <dd>{appeal.message}</dd>
                </div>
                {appeal.grounds ? (
                  <div>
                    <dt>Grounds</dt>
                    <dd>{appeal.grounds}</dd>
                  </div>
                ) : null}
                {appeal.decidedAt ? (
                  <div>
                    <dt>Decided</dt>
                    <dd>
                      <DateTime value={appeal.decidedAt} />
                    </dd>
                  </div>
                ) : null}
                {appeal.explanation ? (
                  <div>
                    <dt>Explanation</dt>
                    <dd>{appeal.explanation}</dd>
                  </div>
                ) : null}
              </dl>
              {mayDecide && isOpen(appeal) ? (
                <DecisionForm
                  path={`${path}/${encodeURIComponent(appeal.id)}/decide`}
                  idPrefix={`appeal-${appeal.id}`}
                  onDone={(words) => {
                    setDone(`Appeal ${i + 1}: ${words}.`);
                    appeals.reload();
                    // Approving reopens the request: its status, deadline and actions change.
                    reload();
                  }}
                />
              ) : null}
            </article>
          ))
        : null}
    </div>
  );
}

function DecisionForm({ path, idPrefix, onDone }: { path: string; idPrefix: string; onDone: (words: string) => void }) {
  const { api } = useAuth();
  const [decision, setDecision] = useState('');
  const [explanation, setExplanation] = useState('');
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const command = decisionCommand({ decision, explanation });
    setMissing(command === null);
    if (!command) return;
    setBusy(true);
    setProblem(null);
    const result = await api.post(path, command);
    setBusy(false);
    if (result.ok) onDone(`decided (${APPEAL_DECISION_LABELS[command.decision].toLowerCase()})`);
    else setProblem(result.problem);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${idPrefix}-decide`}>
      <h4 id={`${idPrefix}-decide`}>Decide the appeal</h4>
      <div class="field">
        <label for={`${idPrefix}-decision`}>
          Decision<span class="required"> (required)</span>
        </label>
        <select
          id={`${idPrefix}-decision`}
          value={decision}
          required
          aria-invalid={missing ? 'true' : undefined}
          aria-describedby={missing ? `${idPrefix}-decision-missing` : undefined}
          onChange={(e) => setDecision(e.currentTarget.value)}
        >
          <option value="">Choose…</option>
          {keysOf(APPEAL_DECISION_LABELS).map((d) => (
            <option key={d} value={d}>
              {APPEAL_DECISION_LABELS[d]}
            </option>
          ))}
        </select>
        {missing ? (
          <p id={`${idPrefix}-decision-missing`} class="field-error">
            Required.
          </p>
        ) : null}
      </div>
      <div class="field">
        <label for={`${idPrefix}-explanation`}>Explanation, as the requester is told it</label>
        <textarea id={`${idPrefix}-explanation`} rows={3} maxLength={10_000} value={explanation} onInput={(e) => setExplanation(e.currentTarget.value)} />
      </div>
      {problem ? <ProblemView problem={problem} context="The decision was refused" /> : null}
      <FormButtons submit="Record decision" busy={busy} />
    </form>
  );
}
