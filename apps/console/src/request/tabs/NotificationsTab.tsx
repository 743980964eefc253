import type { NotificationHistory, RequestDetail, SessionView } from '@dsar/contracts';
import { useState } from 'preact/hooks';
import { useAuth } from '../../auth/auth';
import { DateTime } from '../../components/DateTime';
import { ProblemView } from '../../components/ProblemView';
import { labelOf } from '../../labels';
import type { Problem } from '../../problem';
import { useApiGet } from '../../use-api';
import { AUDIENCE_LABELS, NOTIFICATION_KIND_LABELS, NOTIFICATION_STATUS_LABELS, type NotificationRow, notificationRows, REPLAY_PERMISSION } from './notifications';

interface TabProps {
  detail: RequestDetail;
  session: SessionView;
  reload: () => void;
}

/** Every message sent because of the request, with its attempts; a caller who may act can send one again. */
export function NotificationsTab({ detail, session }: TabProps) {
  const { api } = useAuth();
  const path = `/requests/${encodeURIComponent(detail.id)}/notifications`;
  const history = useApiGet<NotificationHistory>(path);
  const mayReplay = session.permissions.includes(REPLAY_PERMISSION);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ eventId: string; problem: Problem | null; words: string } | null>(null);

  const replay = async (row: NotificationRow) => {
    if (busy) return;
    setBusy(row.eventId);
    setOutcome(null);
    const words = `${labelOf(NOTIFICATION_KIND_LABELS, row.kind)} to ${labelOf(AUDIENCE_LABELS, row.audience).toLowerCase()}`;
    const result = await api.post(`${path}/${encodeURIComponent(row.eventId)}/replay`, undefined);
    setBusy(null);
    setOutcome({ eventId: row.eventId, problem: result.ok ? null : result.problem, words });
    if (result.ok) history.reload();
  };

  const { result, loading } = history;
  return (
    <div class="tab-body">
      <p role="status" class="done">
        {outcome && !outcome.problem ? `${outcome.words}: sent again. The new attempts show here within moments.` : ''}
      </p>
      {outcome?.problem ? <ProblemView problem={outcome.problem} context={`${outcome.words} could not be sent again`} /> : null}
      {!result ? <p role="status">{loading ? 'Loading the notifications…' : ''}</p> : null}
      {result && !result.ok ? <ProblemView problem={result.problem} context="The notifications could not be read" /> : null}
      {result?.ok && result.data.events.length === 0 ? <p>No notification yet.</p> : null}
      {result?.ok && result.data.events.length > 0 ? (
        <table class="queue" aria-label="Notifications">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Audience</th>
              <th scope="col">Channel</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Sent at</th>
              {mayReplay ? (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {notificationRows(result.data).map((row) => (
              <tr key={row.eventId}>
                <td data-label="Kind">{labelOf(NOTIFICATION_KIND_LABELS, row.kind)}</td>
                <td data-label="Audience">{labelOf(AUDIENCE_LABELS, row.audience)}</td>
                <td data-label="Channel">{row.channels || <span class="muted">Not tried yet</span>}</td>
                <td data-label="Status">
                  {labelOf(NOTIFICATION_STATUS_LABELS, row.status)}
                  {row.lastError ? <span class="muted"> ({row.lastError})</span> : null}
                </td>
                <td data-label="Attempts">{row.attempts}</td>
                <td data-label="Sent at">{row.sentAt ? <DateTime value={row.sentAt} /> : <span class="muted">Not sent</span>}</td>
                {mayReplay ? (
                  <td data-label="Actions">
                    <button type="button" onClick={() => void replay(row)} disabled={busy !== null}>
                      Replay<span class="visually-hidden"> {`${labelOf(NOTIFICATION_KIND_LABELS, row.kind)} to ${labelOf(AUDIENCE_LABELS, row.audience).toLowerCase()}`}</span>
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
