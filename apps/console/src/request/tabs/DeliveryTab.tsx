import type { RequestDetail, SessionView } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { keysOf } from '../../labels';
import type { Problem } from '../../problem';
import { type Loaded, useApiGet } from '../../use-api';
import {
  canPrepareDelivery,
  DELIVERY_CHANNEL_LABELS,
  type DeliveryChannel,
  deliveryLogRows,
  type DeliveryLogs,
  type DeliveryPrepared,
  type DeliverySecurityLevel,
  SECURITY_LEVEL_LABELS,
  type StepUpChallenge,
} from './delivery';

interface TabProps {
  detail: RequestDetail;
  session: SessionView;
  reload: () => void;
}

/** The delivery of a fulfilled request: prepare it, issue the data subject's step-up token, and the log of every try. */
export function DeliveryTab({ detail, session }: TabProps) {
  const path = `/requests/${encodeURIComponent(detail.id)}/delivery`;
  const logs = useApiGet<DeliveryLogs>(`${path}/logs`);
  const mayAct = canPrepareDelivery(detail.status, session.permissions);
  return (
    <div class="tab-body">
      {detail.status !== 'fulfilled' ? <p class="muted">Delivery is for fulfilled requests: this one is not fulfilled.</p> : null}
      {mayAct ? <PrepareForm path={path} onDone={logs.reload} /> : null}
      {mayAct ? <StepUp path={path} onDone={logs.reload} /> : null}
      <h3>Delivery log</h3>
      <DeliveryLogTable logs={logs} />
    </div>
  );
}

function PrepareForm({ path, onDone }: { path: string; onDone: () => void }) {
  const { api } = useAuth();
  const [channel, setChannel] = useState<DeliveryChannel>('portal');
  const [level, setLevel] = useState<DeliverySecurityLevel>('token');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [prepared, setPrepared] = useState<DeliveryPrepared | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const result = await api.post<DeliveryPrepared>(`${path}/prepare`, { channel, securityLevel: level });
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    setPrepared(result.data);
    onDone();
  };

  return (
    <form class="action-form" onSubmit={submit} aria-labelledby="delivery-prepare-heading">
      <h3 id="delivery-prepare-heading">Prepare the delivery</h3>
      <p class="muted">How the fulfilled data goes to the data subject. Preparing again replaces the channel and level.</p>
      <div class="field">
        <label for="delivery-channel">Delivery channel</label>
        <select id="delivery-channel" value={channel} onChange={(e) => setChannel(e.currentTarget.value as DeliveryChannel)}>
          {keysOf(DELIVERY_CHANNEL_LABELS).map((c) => (
            <option key={c} value={c}>
              {DELIVERY_CHANNEL_LABELS[c]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="delivery-level">Security level</label>
        <select id="delivery-level" value={level} onChange={(e) => setLevel(e.currentTarget.value as DeliverySecurityLevel)}>
          {keysOf(SECURITY_LEVEL_LABELS).map((l) => (
            <option key={l} value={l}>
              {SECURITY_LEVEL_LABELS[l]}
            </option>
          ))}
        </select>
      </div>
      {problem ? <ProblemView problem={problem} context="The delivery could not be prepared" /> : null}
      <div class="form-buttons">
        <button type="submit" class="primary" disabled={busy}>
          Prepare delivery
        </button>
      </div>
      <div role="status">
        {prepared ? (
          <p class="notice">
            Delivery prepared: {DELIVERY_CHANNEL_LABELS[prepared.deliveryPrepare.channel]}, {SECURITY_LEVEL_LABELS[prepared.deliveryPrepare.securityLevel].toLowerCase()}, {prepared.artifacts.length}{' '}
            {prepared.artifacts.length === 1 ? 'artifact' : 'artifacts'} ({prepared.artifacts.map((a) => a.filename).join(', ')}).
          </p>
        ) : busy ? (
          <span class="muted">Sending…</span>
        ) : null}
      </div>
    </form>
  );
}

function StepUp({ path, onDone }: { path: string; onDone: () => void }) {
  const { api } = useAuth();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [challenge, setChallenge] = useState<StepUpChallenge | null>(null);

  const issue = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    setChallenge(null);
    const result = await api.post<StepUpChallenge>(`${path}/step-up/challenge`, undefined);
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    setChallenge(result.data);
    onDone();
  };

  return (
    <section class="action-form" aria-labelledby="delivery-step-up-heading">
      <h3 id="delivery-step-up-heading">Step-up challenge</h3>
      <p class="muted">Every download needs the data subject's token. A new token revokes the one before (and unlocks a locked gate).</p>
      <div class="form-buttons">
        <button type="button" onClick={issue} disabled={busy}>
          Issue step-up token
        </button>
      </div>
      {problem ? <ProblemView problem={problem} context="No token was issued" /> : null}
      {challenge ? (
        <div class="notice" role="status">
          <p>
            <strong>Shown once:</strong> give this token to the data subject now. It is stored only as a hash and cannot be shown again.
          </p>
          <div class="field">
            <label for="delivery-token">Step-up token</label>
            <input id="delivery-token" type="text" readOnly value={challenge.token} autoComplete="off" spellcheck={false} />
          </div>
          <p>
            Valid until <DateTime value={challenge.expiresAt} />.
          </p>
        </div>
      ) : null}
    </section>
  );
}

function DeliveryLogTable({ logs }: { logs: Loaded<DeliveryLogs> }) {
  const { result, loading } = logs;
  if (!result) return <p role="status">{loading ? 'Loading the delivery log…' : ''}</p>;
  if (!result.ok) return <ProblemView problem={result.problem} context="The delivery log could not be read" />;
  const rows = deliveryLogRows(result.data.logs);
  if (rows.length === 0) return <p>Nothing was tried yet.</p>;
  return (
    <table class="queue" aria-label="Delivery log">
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Try</th>
          <th scope="col">When</th>
          <th scope="col">Outcome</th>
          <th scope="col">By</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td data-label="Step">{row.step}</td>
            <td data-label="Try">{row.attempt}</td>
            <td data-label="When">
              <DateTime value={row.at} />
              {row.lastAt ? (
                <>
                  {' '}
                  ({row.repeats} times, last <DateTime value={row.lastAt} />)
                </>
              ) : null}
            </td>
            <td data-label="Outcome">{row.outcome}</td>
            <td data-label="By">{row.actor}</td>
            <td data-label="Detail">{row.detail ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
