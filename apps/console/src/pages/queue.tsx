import type { QueuePage as QueueAnswer } from '@dsar/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DateTime } from '../components/DateTime';
import { Link } from '../components/Link';
import { ProblemView } from '../components/ProblemView';
import { CHANNEL_LABELS, IDENTITY_KIND_LABELS, keysOf, labelOf, OPEN_STATUSES, REQUEST_TYPE_LABELS, STATUS_LABELS } from '../labels';
import { daysLeft } from '../queue/days-left';
import { type FilterErrors, type FilterForm, type FlagChoice, formOfView, IDENTITY_MAX_LENGTH, viewOfForm } from '../queue/filter-form';
import { countText, hasNextPage } from '../queue/paging';
import { apiQueryOf, EMPTY_VIEW, type IdentitySearch, MAX_AT_RISK_DAYS, QUEUE_PAGE_SIZE, type QueueView, searchOfView, viewFromSearch, withPage } from '../queue/view-state';
import { referenceOf } from '../reference';
import { navigate, requestPath } from '../router';
import { useApiGet } from '../use-api';
import { useJurisdictions } from '../use-jurisdictions';
import { useLocation } from '../use-location';
import { useTitle } from '../use-title';

type Item = QueueAnswer['items'][number];

const SORT_LABELS: Record<QueueView['sortBy'], string> = { receivedAt: 'Received', dueAt: 'Due date', status: 'Status', updatedAt: 'Updated' };

/** The queue (`/console/` and `/console/requests`): filters, sort and page in the address; the person searched for only in memory. */
export function QueuePage() {
  useTitle('Requests');
  const location = useLocation();
  const view = useMemo(() => viewFromSearch(location.search), [location.search]);
  // The person searched for lives here, not in the address: it survives paging and sorting, not a reload.
  const [identity, setIdentity] = useState<IdentitySearch | null>(null);
  const [form, setForm] = useState<FilterForm>(() => formOfView(view, null));
  const [errors, setErrors] = useState<FilterErrors>({});
  const query = useMemo(() => apiQueryOf(view, identity), [view, identity]);
  const { result, loading, reload } = useApiGet<QueueAnswer>('/requests', query, { keepWhileLoading: true });
  const formRef = useRef<HTMLFormElement>(null);

  // Back and forward change the view: the form follows the address (the identity stays as typed).
  useEffect(() => {
    setForm((before) => ({ ...formOfView(view, null), identity: before.identity, identityKind: before.identityKind }));
    setErrors({});
  }, [location.search]);

  const goTo = (next: QueueView) => {
    const target = `${location.pathname}${searchOfView(next)}`;
    if (target === `${location.pathname}${location.search}`) reload();
    else navigate(target);
  };

  const apply = (event: Event) => {
    event.preventDefault();
    const outcome = viewOfForm(form);
    setErrors(outcome.errors);
    const firstInvalid = Object.keys(outcome.errors)[0];
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    const sameIdentity = identity?.value === outcome.identity?.value && identity?.kind === outcome.identity?.kind;
    setIdentity(outcome.identity);
    // A new identity alone does not change the address; the query changes, and so the page reads again.
    if (!sameIdentity && searchOfView(outcome.view) === location.search) return;
    goTo(outcome.view);
  };

  const clear = () => {
    setIdentity(null);
    setErrors({});
    // Every filter goes; the order of the rows stays.
    const cleared: QueueView = { ...EMPTY_VIEW, sortBy: view.sortBy, sortOrder: view.sortOrder };
    setForm(formOfView(cleared, null));
    goTo(cleared);
  };

  const answer = result?.ok ? result.data : null;
  const pageInfo = answer ? { offset: answer.offset, count: answer.items.length, limit: answer.limit, total: answer.total, totalExact: answer.totalExact } : null;

  return (
    <>
      <h1 tabIndex={-1}>Requests</h1>
      <Filters form={form} setForm={setForm} errors={errors} onSubmit={apply} onClear={clear} formRef={formRef} />
      <p class="count" aria-live="polite">
        {loading && !answer ? 'Loading requests…' : pageInfo ? countText(pageInfo) : ''}
        {identity ? <span class="muted"> (searching for one person)</span> : null}
      </p>
      {result && !result.ok ? <ProblemView problem={result.problem} context="The queue could not be read" /> : null}
      {answer && answer.items.length > 0 ? <QueueTable items={answer.items} /> : null}
      {pageInfo ? (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={view.page <= 1} onClick={() => goTo(withPage(view, view.page - 1))}>
            Previous page
          </button>
          <span class="muted">Page {view.page.toLocaleString()}</span>
          <button type="button" disabled={!hasNextPage(pageInfo)} onClick={() => goTo(withPage(view, view.page + 1))}>
            Next page
          </button>
        </nav>
      ) : null}
    </>
  );
}

function QueueTable({ items }: { items: Item[] }) {
  const now = new Date();
  return (
    <table class="queue" aria-label="Requests">
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Status</th>
          <th scope="col">Type</th>
          <th scope="col">Jurisdiction</th>
          <th scope="col">Channel</th>
          <th scope="col">Received</th>
          <th scope="col">Due</th>
          <th scope="col">Time left</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id}>
            <td data-label="Reference">
              <Link href={requestPath(item.id)} class="reference">
                {referenceOf(item.id)}
              </Link>
            </td>
            <td data-label="Status">
              {labelOf(STATUS_LABELS, item.status)}
              {item.duplicateOf ? <span class="tag">duplicate</span> : null}
            </td>
            <td data-label="Type">{item.requestType ? labelOf(REQUEST_TYPE_LABELS, item.requestType) : <span class="tag">triage</span>}</td>
            <td data-label="Jurisdiction">{item.jurisdiction}</td>
            <td data-label="Channel">{labelOf(CHANNEL_LABELS, item.channel)}</td>
            <td data-label="Received">
              <DateTime value={item.receivedAt} dateOnly />
            </td>
            <td data-label="Due">
              <DateTime value={item.dueAt} dateOnly />
            </td>
            <td data-label="Time left">
              <DaysLeftBadge item={item} now={now} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DaysLeftBadge({ item, now }: { item: Item; now: Date }) {
  if (!OPEN_STATUSES.includes(item.status)) return <span class="muted">finished</span>;
  const left = daysLeft({ dueAt: item.dueAt, receivedAt: item.receivedAt, now, overdue: item.overdue });
  return <span class={`badge badge-${left.level}`}>{left.text}</span>;
}

interface FiltersProps {
  form: FilterForm;
  setForm: (update: (before: FilterForm) => FilterForm) => void;
  errors: FilterErrors;
  onSubmit: (event: Event) => void;
  onClear: () => void;
  formRef: { current: HTMLFormElement | null };
}

const FLAG_FILTERS: Array<{ name: 'waitingOnSystems' | 'triage' | 'duplicate'; label: string; yes: string; no: string }> = [
  { name: 'waitingOnSystems', label: 'Waiting on systems', yes: 'Only waiting on systems', no: 'Not waiting on systems' },
  { name: 'triage', label: 'In triage', yes: 'Only in triage', no: 'Not in triage' },
  { name: 'duplicate', label: 'Duplicates', yes: 'Only duplicates', no: 'No duplicates' },
];

function Filters({ form, setForm, errors, onSubmit, onClear, formRef }: FiltersProps) {
  const jurisdictions = useJurisdictions();
  const set = <K extends keyof FilterForm>(name: K, value: FilterForm[K]) => setForm((before) => ({ ...before, [name]: value }));
  const text = (name: keyof FilterForm) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;
    setForm((before) => ({ ...before, [name]: value }));
  };
  const invalid = (name: keyof FilterForm) => (errors[name] ? { 'aria-invalid': 'true' as const, 'aria-describedby': `filter-${name}-error` } : {});
  const error = (name: keyof FilterForm) =>
    errors[name] ? (
      <p id={`filter-${name}-error`} class="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <form class="filters" onSubmit={onSubmit} ref={formRef} noValidate aria-label="Filters">
      <fieldset class="field status-filter" aria-labelledby="filter-status-legend">
        <legend id="filter-status-legend">Status</legend>
        <div class="checks">
          {keysOf(STATUS_LABELS).map((status) => (
            <label key={status} class="check">
              <input
                type="checkbox"
                name="status"
                value={status}
                checked={form.status.includes(status)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setForm((before) => ({ ...before, status: on ? [...before.status, status] : before.status.filter((s) => s !== status) }));
                }}
              />
              {STATUS_LABELS[status]}
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field">
        <label for="filter-requestType">Type</label>
        <select id="filter-requestType" name="requestType" value={form.requestType} onChange={text('requestType')}>
          <option value="">Any</option>
          {keysOf(REQUEST_TYPE_LABELS).map((t) => (
            <option key={t} value={t}>
              {REQUEST_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-jurisdiction">Jurisdiction</label>
        {jurisdictions ? (
          <select id="filter-jurisdiction" name="jurisdiction" value={form.jurisdiction} onChange={text('jurisdiction')}>
            <option value="">Any</option>
            {jurisdictions.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        ) : (
          <input id="filter-jurisdiction" name="jurisdiction" type="text" value={form.jurisdiction} onInput={text('jurisdiction')} autoComplete="off" {...invalid('jurisdiction')} />
        )}
        {error('jurisdiction')}
      </div>
      <div class="field">
        <label for="filter-channel">Channel</label>
        <select id="filter-channel" name="channel" value={form.channel} onChange={text('channel')}>
          <option value="">Any</option>
          {keysOf(CHANNEL_LABELS).map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABELS[c]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-receivedFrom">Received from</label>
        <input id="filter-receivedFrom" name="receivedFrom" type="date" value={form.receivedFrom} onInput={text('receivedFrom')} {...invalid('receivedFrom')} />
        {error('receivedFrom')}
      </div>
      <div class="field">
        <label for="filter-receivedBefore">Received before</label>
        <input id="filter-receivedBefore" name="receivedBefore" type="date" value={form.receivedBefore} onInput={text('receivedBefore')} {...invalid('receivedBefore')} />
        {error('receivedBefore')}
      </div>
      <div class="field">
        <label for="filter-atRiskDays">At risk within (days)</label>
        <input
          id="filter-atRiskDays"
          name="atRiskDays"
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_AT_RISK_DAYS}
          value={form.atRiskDays}
          onInput={text('atRiskDays')}
          {...invalid('atRiskDays')}
        />
        {error('atRiskDays')}
      </div>
      <div class="field field-check">
        <input id="filter-overdue" name="overdue" type="checkbox" checked={form.overdue} onChange={(e) => set('overdue', e.currentTarget.checked)} />
        <label for="filter-overdue">Overdue only</label>
      </div>
      {FLAG_FILTERS.map((f) => (
        <div class="field" key={f.name}>
          <label for={`filter-${f.name}`}>{f.label}</label>
          <select id={`filter-${f.name}`} name={f.name} value={form[f.name]} onChange={(e) => set(f.name, e.currentTarget.value as FlagChoice)}>
            <option value="">Any</option>
            <option value="true">{f.yes}</option>
            <option value="false">{f.no}</option>
          </select>
        </div>
      ))}
      <div class="field">
        <label for="filter-reference">Reference</label>
        <input
          id="filter-reference"
          name="reference"
          type="text"
          placeholder="DSAR-1A2B3C4D"
          autoComplete="off"
          spellcheck={false}
          value={form.reference}
          onInput={text('reference')}
          {...invalid('reference')}
        />
        {error('reference')}
      </div>
      <div class="field field-wide">
        <label for="filter-identity">Person (email, phone or account)</label>
        <input
          id="filter-identity"
          name="identity"
          type="text"
          autoComplete="off"
          spellcheck={false}
          maxLength={IDENTITY_MAX_LENGTH}
          value={form.identity}
          onInput={text('identity')}
          aria-describedby="filter-identity-hint"
          {...(errors.identity ? { 'aria-invalid': 'true' as const } : {})}
        />
        <p id="filter-identity-hint" class="hint">
          An exact match; kept out of the address.
        </p>
        {error('identity')}
      </div>
      <div class="field">
        <label for="filter-identityKind">Identity kind</label>
        <select id="filter-identityKind" name="identityKind" value={form.identityKind} onChange={text('identityKind')}>
          {keysOf(IDENTITY_KIND_LABELS).map((k) => (
            <option key={k} value={k}>
              {IDENTITY_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-sortBy">Sort by</label>
        <select id="filter-sortBy" name="sortBy" value={form.sortBy} onChange={text('sortBy')}>
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-sortOrder">Order</label>
        <select id="filter-sortOrder" name="sortOrder" value={form.sortOrder} onChange={text('sortOrder')}>
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </select>
      </div>
      <div class="filter-buttons">
        <button type="submit" class="primary">
          Apply
        </button>
        <button type="button" onClick={onClear}>
          Clear filters
        </button>
      </div>
      <p class="hint">Pages of {QUEUE_PAGE_SIZE}.</p>
    </form>
  );
}
