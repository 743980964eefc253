import type { ClockExplanation, RequestDetail, RequestorReveal, Timeline } from '@dsar/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAuth, useSession } from '../auth/auth';
import { DateTime } from '../components/DateTime';
import { Link } from '../components/Link';
import { ProblemView } from '../components/ProblemView';
import { Tabs } from '../components/Tabs';
import { formatDate } from '../format';
import type { Problem } from '../problem';
import { CHANNEL_LABELS, labelOf, OPEN_STATUSES, REQUEST_TYPE_LABELS, STATUS_LABELS } from '../labels';
import { daysLeft } from '../queue/days-left';
import { referenceOf } from '../reference';
import { ActionsPanel } from '../request/ActionsPanel';
import { DeadlinePicture } from '../request/DeadlinePicture';
import { identitiesOf, identitySourceOfDetail, revealPath } from '../request/identities';
import { TimelineView } from '../request/TimelineView';
import { AppealsTab } from '../request/tabs/AppealsTab';
import { AuditTab } from '../request/tabs/AuditTab';
import { DeliveryTab } from '../request/tabs/DeliveryTab';
import { NotificationsTab } from '../request/tabs/NotificationsTab';
import { ManifestTab } from '../request/tabs/ManifestTab';
import { TasksTab } from '../request/tabs/TasksTab';
import { VerificationTab } from '../request/tabs/VerificationTab';
import { QUEUE_PATH, requestPath } from '../router';
import { useApiGet } from '../use-api';
import { useTitle } from '../use-title';

type Correction = ClockExplanation['corrections'][number];

/** The detail as the page reads it: the requestor's identities masked by the API until a reveal, which is recorded. */
const MASKED = new URLSearchParams({ requestor: 'masked' });

/** One request (`/console/requests/<id>`, the id or its reference): its facts, deadline, actions and timeline. */
export function RequestPage({ id }: { id: string }) {
  const session = useSession();
  const detail = useApiGet<RequestDetail>(`/requests/${encodeURIComponent(id)}`, MASKED);
  // The rest is read once the request is known (by its id, also when the address holds its reference): a request
  // that does not exist, or is another tenant's, costs one call.
  const known = detail.result?.ok ? `/requests/${encodeURIComponent(detail.result.data.id)}` : null;
  const explanation = useApiGet<ClockExplanation>(known && `${known}/clock/explain`);
  const timeline = useApiGet<Timeline>(known && `${known}/timeline`);
  const [done, setDone] = useState<string | null>(null);
  const reference = detail.result?.ok ? referenceOf(detail.result.data.id) : referenceOf(id);
  // Another tenant's request is answered as a missing one (404); an id of the wrong form is a 400: neither exists here.
  const missing = detail.result && !detail.result.ok && (detail.result.problem.status === 404 || detail.result.problem.status === 400);
  useTitle(missing ? 'Not found' : reference);

  if (missing) {
    return (
      <>
        <h1 tabIndex={-1}>No request with this id</h1>
        <p>
          There is no request <code>{id}</code> that you can see. <Link href={QUEUE_PATH}>Back to the requests</Link>.
        </p>
      </>
    );
  }

  const reloadAll = (label: string) => {
    setDone(`${label}: done.`);
    detail.reload();
    explanation.reload();
    timeline.reload();
  };

  const request = detail.result?.ok ? detail.result.data : null;
  return (
    <>
      <h1 tabIndex={-1}>{reference}</h1>
      <p role="status" class="done">
        {done ?? ''}
      </p>
      {!detail.result ? <p role="status">Loading the request…</p> : null}
      {detail.result && !detail.result.ok ? <ProblemView problem={detail.result.problem} context="The request could not be read" /> : null}
      {request ? (
        <div class="request-layout">
          <RequestFacts request={request} corrections={explanation.result?.ok ? explanation.result.data.corrections : []} />
          {/* A changed request (an action, a replaced requestor) is shown masked again: a reveal shows what it answered. */}
          <Requestor key={request.updatedAt} request={request} onRevealed={timeline.reload} />
          <section class="panel deadline" aria-labelledby="deadline-heading">
            <h2 id="deadline-heading">Deadline</h2>
            {!explanation.result ? <p role="status">Loading the deadline…</p> : null}
            {explanation.result && !explanation.result.ok ? <ProblemView problem={explanation.result.problem} context="The deadline could not be explained" /> : null}
            {explanation.result?.ok ? <Deadline explanation={explanation.result.data} /> : null}
          </section>
          <ActionsPanel request={request} session={session} onDone={reloadAll} />
          <section class="panel details" aria-label="More about the request">
            <Tabs
              label="About the request"
              tabs={[
                { id: 'timeline', label: 'Timeline', render: () => <TimelineView timeline={timeline} /> },
                { id: 'delivery', label: 'Delivery', render: () => <DeliveryTab detail={request} session={session} reload={detail.reload} /> },
                { id: 'notifications', label: 'Notifications', render: () => <NotificationsTab detail={request} session={session} reload={detail.reload} /> },
                { id: 'appeals', label: 'Appeals', render: () => <AppealsTab detail={request} session={session} reload={() => reloadAll('Decide appeal')} /> },
                { id: 'audit', label: 'Audit chain', render: () => <AuditTab detail={request} session={session} reload={detail.reload} /> },
                { id: 'verification', label: 'Verification', render: () => <VerificationTab detail={request} session={session} reload={detail.reload} /> },
                { id: 'tasks', label: 'Systems and tasks', render: () => <TasksTab detail={request} session={session} reload={detail.reload} /> },
                { id: 'manifest', label: 'Manifest and review', render: () => <ManifestTab detail={request} session={session} reload={detail.reload} /> },
              ]}
            />
          </section>
        </div>
      ) : null}
    </>
  );
}

function typeWords(request: RequestDetail): string {
  if (request.requestType) return labelOf(REQUEST_TYPE_LABELS, request.requestType);
  const guess = request.triage?.suggestedType ? `; intake suggests ${labelOf(REQUEST_TYPE_LABELS, request.triage.suggestedType).toLowerCase()}` : '';
  return `Triage (${(request.triage?.reason ?? 'type unknown').replace(/_/g, ' ')}${guess})`;
}

function correctionWords(correction: Correction): string {
  const changes: string[] = [];
  if (correction.from.requestType !== correction.to.requestType) {
    const from = correction.from.requestType ? labelOf(REQUEST_TYPE_LABELS, correction.from.requestType) : 'triage';
    const to = correction.to.requestType ? labelOf(REQUEST_TYPE_LABELS, correction.to.requestType) : 'triage';
    changes.push(`type ${from} → ${to}`);
  }
  if (correction.from.jurisdiction !== correction.to.jurisdiction) changes.push(`jurisdiction ${correction.from.jurisdiction} → ${correction.to.jurisdiction}`);
  return `Corrected on ${formatDate(correction.at)} by ${correction.actor}: ${changes.join(', ') || 'facts'} (${correction.reason})`;
}

function RequestFacts({ request, corrections }: { request: RequestDetail; corrections: Correction[] }) {
  const open = OPEN_STATUSES.includes(request.status);
  const left = open ? daysLeft({ dueAt: request.dueAt, receivedAt: request.intakeSource.receivedAt, now: new Date() }) : null;
  return (
    <section class="panel facts-panel" aria-labelledby="facts-heading">
      <h2 id="facts-heading">Request</h2>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>
            {labelOf(STATUS_LABELS, request.status)}
            {request.statusReason ? <span class="muted"> ({request.statusReason.replace(/_/g, ' ')})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{typeWords(request)}</dd>
        </div>
        {corrections.length > 0 ? (
          <div>
            <dt>Correction</dt>
            <dd>{correctionWords(corrections[corrections.length - 1])}</dd>
          </div>
        ) : null}
        <div>
          <dt>Jurisdiction</dt>
          <dd>
            {request.jurisdiction}{' '}
            <span class="muted">
              ({request.policyPack} {request.policyVersion})
            </span>
          </dd>
        </div>
        <div>
          <dt>Channel</dt>
          <dd>{labelOf(CHANNEL_LABELS, request.intakeSource.channel)}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>
            <DateTime value={request.intakeSource.receivedAt} />
          </dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd>
            <DateTime value={request.dueAt} /> {left ? <span class={`badge badge-${left.level}`}>{left.text}</span> : null}
          </dd>
        </div>
        {request.duplicate ? (
          <div>
            <dt>Duplicate</dt>
            <dd>
              {request.duplicate.state === 'marked' ? 'Marked as a duplicate of ' : request.duplicate.state === 'confirmed' ? 'Confirmed duplicate of ' : 'Separated from '}
              <Link href={requestPath(request.duplicate.of)}>{referenceOf(request.duplicate.of)}</Link>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/**
 * The requestor, its identities masked as the API answers them. "Reveal" asks why, and the API answers them in clear
 * and records the reveal (on the timeline and the audit chain); "Hide" masks them again, and seeing them again is
 * another recorded reveal. A refused reveal shows the API's problem in the form.
 */
function Requestor({ request, onRevealed }: { request: RequestDetail; onRevealed: () => void }) {
  const { api } = useAuth();
  const [revealed, setRevealed] = useState<RequestorReveal | null>(null);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const revealButton = useRef<HTMLButtonElement>(null);
  const hideButton = useRef<HTMLButtonElement>(null);
  const identities = identitiesOf(revealed ?? identitySourceOfDetail(request));

  useEffect(() => {
    if (asking) reasonField.current?.focus();
  }, [asking]);
  useEffect(() => {
    if (revealed) hideButton.current?.focus();
  }, [revealed]);

  const close = () => {
    setAsking(false);
    setReason('');
    setProblem(null);
  };

  const reveal = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    // The reason goes as typed: the API trims it, and refuses a blank or too long one without recording anything.
    const result = await api.post<RequestorReveal>(revealPath(request.id), { reason });
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    close();
    setRevealed(result.data);
    onRevealed();
  };

  return (
    <section class="panel requestor" aria-labelledby="requestor-heading">
      <h2 id="requestor-heading">Requestor</h2>
      <dl class="facts">
        <div>
          <dt>Acting as</dt>
          <dd>{request.requestor.type.replace(/_/g, ' ')}</dd>
        </div>
        {identities.map((identity, i) => (
          <div key={i}>
            <dt>{identity.label}</dt>
            <dd class="identity">{identity.value}</dd>
          </div>
        ))}
      </dl>
      <p role="status" class="done">
        {revealed ? 'Revealed; the reveal is recorded on the timeline.' : ''}
      </p>
      {identities.length === 0 ? <p class="muted">No identity recorded.</p> : null}
      {identities.length > 0 && revealed ? (
        <button type="button" ref={hideButton} onClick={() => setRevealed(null)}>
          Hide
        </button>
      ) : null}
      {identities.length > 0 && !revealed ? (
        <button type="button" ref={revealButton} aria-expanded={asking ? 'true' : 'false'} aria-controls={asking ? 'reveal-form' : undefined} onClick={() => (asking ? close() : setAsking(true))}>
          Reveal
        </button>
      ) : null}
      {asking ? (
        <form id="reveal-form" class="action-form" onSubmit={reveal} noValidate aria-labelledby="reveal-heading">
          <h3 id="reveal-heading">Reveal the identities</h3>
          <p class="muted">Each reveal is recorded with who asked and why, on the timeline and the audit chain.</p>
          <div class="field">
            <label for="reveal-reason">
              Why you need them in clear<span class="required"> (required)</span>
            </label>
            <textarea id="reveal-reason" name="reason" ref={reasonField} rows={2} maxLength={500} required value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </div>
          {problem ? <ProblemView problem={problem} context="The reveal was refused" /> : null}
          <div class="form-buttons">
            <button type="submit" class="primary" disabled={busy}>
              Reveal identities
            </button>
            <button
              type="button"
              onClick={() => {
                close();
                revealButton.current?.focus();
              }}
            >
              Cancel
            </button>
            {busy ? (
              <span role="status" class="muted">
                Sending…
              </span>
            ) : null}
          </div>
        </form>
      ) : null}
    </section>
  );
}

function Deadline({ explanation }: { explanation: ClockExplanation }) {
  return (
    <div class="deadline-layout">
      <DeadlinePicture explanation={explanation} now={new Date()} />
      <div class="deadline-words">
        <h3>How it was computed</h3>
        <ol class="steps">
          {explanation.steps.map((step, i) => (
            <li key={i}>{step}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}
