import type { IdentityKind, QueuePage, RequestStatus, RequestType } from '@dsar/contracts';
import { CHANNEL_LABELS, type IntakeChannel, keysOf, REQUEST_TYPE_LABELS, STATUS_LABELS } from '../labels';

/*
 * The queue's view (filters, sort, page) and the page's query string, both ways: the address holds the view, so that
 * a view can be bookmarked and shared. The person searched for (`IdentitySearch`) is not part of the view and has no
 * place in the address: it goes to the API only (docs/identity.md), never into the history, a bookmark or a log.
 */

export type SortField = QueuePage['sortBy'];
export type SortOrder = QueuePage['sortOrder'];

export const QUEUE_PAGE_SIZE = 25;
export const SORT_FIELDS: readonly SortField[] = ['receivedAt', 'dueAt', 'status', 'updatedAt'];
export const DEFAULT_SORT: { sortBy: SortField; sortOrder: SortOrder } = { sortBy: 'receivedAt', sortOrder: 'desc' };
/** The API's bound on `atRiskDays`. */
export const MAX_AT_RISK_DAYS = 3650;
/** The highest page the address may name: the API takes offsets up to ten million. */
const MAX_PAGE = Math.floor(10_000_000 / QUEUE_PAGE_SIZE);

export interface QueueView {
  status: RequestStatus[];
  requestType?: RequestType;
  /** A jurisdiction code in capitals (`DE`, `US-CA`). */
  jurisdiction?: string;
  channel?: IntakeChannel;
  /** A local date, `yyyy-mm-dd`: received on or after its start. */
  receivedFrom?: string;
  /** A local date, `yyyy-mm-dd`: received before its start. */
  receivedBefore?: string;
  atRiskDays?: number;
  /** Only overdue requests: sent as `atRiskDays=0` (due by now), which it overrides. */
  overdue: boolean;
  waitingOnSystems?: boolean;
  triage?: boolean;
  duplicate?: boolean;
  /** A short reference in capitals, `DSAR-1A2B3C4D`. */
  reference?: string;
  sortBy: SortField;
  sortOrder: SortOrder;
  /** 1-based. */
  page: number;
}

/** The person the queue is searched for: sent to the API, never put in the address. */
export interface IdentitySearch {
  value: string;
  kind: IdentityKind;
}

export const EMPTY_VIEW: QueueView = { status: [], overdue: false, ...DEFAULT_SORT, page: 1 };

const STATUSES = keysOf(STATUS_LABELS);
const TYPES = keysOf(REQUEST_TYPE_LABELS);
const CHANNELS = keysOf(CHANNEL_LABELS);

export const REFERENCE_PATTERN = /^DSAR-[0-9A-F]{8}$/i;
export const JURISDICTION_PATTERN = /^[A-Za-z]{2}(?:-[A-Za-z0-9]{1,3})?$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A `yyyy-mm-dd` that names a real day (no 31 February), or undefined. */
export function validDate(value: string | null | undefined): string | undefined {
  const m = value ? DATE_PATTERN.exec(value) : null;
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? (value ?? undefined) : undefined;
}

function intIn(value: string | null, min: number, max: number): number | undefined {
  if (value === null || !/^\d{1,8}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

function flag(value: string | null): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** The view a query string names; what it gets wrong is left out (a hand-edited address still opens). */
export function viewFromSearch(search: string): QueueView {
  const q = new URLSearchParams(search);
  const status = (q.get('status') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is RequestStatus => oneOf(STATUSES, s) !== undefined);
  const jurisdiction = q.get('jurisdiction');
  const reference = q.get('reference');
  const view: QueueView = {
    status: STATUSES.filter((s) => status.includes(s)),
    overdue: q.get('overdue') === 'true',
    sortBy: oneOf(SORT_FIELDS, q.get('sortBy')) ?? DEFAULT_SORT.sortBy,
    sortOrder: oneOf(['asc', 'desc'] as const, q.get('sortOrder')) ?? DEFAULT_SORT.sortOrder,
    page: intIn(q.get('page'), 1, MAX_PAGE) ?? 1,
  };
  const requestType = oneOf(TYPES, q.get('requestType'));
  if (requestType) view.requestType = requestType;
  if (jurisdiction !== null && JURISDICTION_PATTERN.test(jurisdiction)) view.jurisdiction = jurisdiction.toUpperCase();
  const channel = oneOf(CHANNELS, q.get('channel'));
  if (channel) view.channel = channel;
  const receivedFrom = validDate(q.get('receivedFrom'));
  if (receivedFrom) view.receivedFrom = receivedFrom;
  const receivedBefore = validDate(q.get('receivedBefore'));
  if (receivedBefore) view.receivedBefore = receivedBefore;
  const atRiskDays = intIn(q.get('atRiskDays'), 0, MAX_AT_RISK_DAYS);
  if (atRiskDays !== undefined) view.atRiskDays = atRiskDays;
  for (const name of ['waitingOnSystems', 'triage', 'duplicate'] as const) {
    const value = flag(q.get(name));
    if (value !== undefined) view[name] = value;
  }
  if (reference !== null && REFERENCE_PATTERN.test(reference)) view.reference = reference.toUpperCase();
  return view;
}

/**
 * The query string of a view (`?status=received&sortBy=dueAt`), or '' for the default view: only what differs from
 * the default, in a fixed order, so that one view has one address. Reads the view's own fields only: nothing else
 * (an identity above all) can reach the address through it.
 */
export function searchOfView(view: QueueView): string {
  const q = new URLSearchParams();
  if (view.status.length > 0) q.set('status', view.status.join(','));
  if (view.requestType) q.set('requestType', view.requestType);
  if (view.jurisdiction) q.set('jurisdiction', view.jurisdiction);
  if (view.channel) q.set('channel', view.channel);
  if (view.receivedFrom) q.set('receivedFrom', view.receivedFrom);
  if (view.receivedBefore) q.set('receivedBefore', view.receivedBefore);
  if (view.atRiskDays !== undefined) q.set('atRiskDays', String(view.atRiskDays));
  if (view.overdue) q.set('overdue', 'true');
  if (view.waitingOnSystems !== undefined) q.set('waitingOnSystems', String(view.waitingOnSystems));
  if (view.triage !== undefined) q.set('triage', String(view.triage));
  if (view.duplicate !== undefined) q.set('duplicate', String(view.duplicate));
  if (view.reference) q.set('reference', view.reference);
  if (view.sortBy !== DEFAULT_SORT.sortBy) q.set('sortBy', view.sortBy);
  if (view.sortOrder !== DEFAULT_SORT.sortOrder) q.set('sortOrder', view.sortOrder);
  if (view.page > 1) q.set('page', String(view.page));
  const search = q.toString();
  return search === '' ? '' : `?${search}`;
}

/** The instant a local date starts, in the browser's time zone: how the dates of the form become the API's instants. */
export function startOfLocalDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).toISOString();
}

/** The query of `GET /requests` for a view and, when searching for a person, the identity (queueQuery in the contracts). */
export function apiQueryOf(view: QueueView, identity: IdentitySearch | null = null): URLSearchParams {
  const q = new URLSearchParams();
  q.set('limit', String(QUEUE_PAGE_SIZE));
  q.set('offset', String((view.page - 1) * QUEUE_PAGE_SIZE));
  q.set('sortBy', view.sortBy);
  q.set('sortOrder', view.sortOrder);
  if (view.status.length > 0) q.set('status', view.status.join(','));
  if (view.requestType) q.set('requestType', view.requestType);
  if (view.jurisdiction) q.set('jurisdiction', view.jurisdiction);
  if (view.channel) q.set('channel', view.channel);
  if (view.receivedFrom) q.set('receivedFrom', startOfLocalDay(view.receivedFrom));
  if (view.receivedBefore) q.set('receivedTo', startOfLocalDay(view.receivedBefore));
  // Overdue: due by now, which is what `atRiskDays=0` selects (open requests only).
  if (view.overdue) q.set('atRiskDays', '0');
  else if (view.atRiskDays !== undefined) q.set('atRiskDays', String(view.atRiskDays));
  if (view.waitingOnSystems !== undefined) q.set('waitingOnSystems', String(view.waitingOnSystems));
  if (view.triage !== undefined) q.set('triage', String(view.triage));
  if (view.duplicate !== undefined) q.set('duplicate', String(view.duplicate));
  if (view.reference) q.set('reference', view.reference);
  if (identity && identity.value.trim() !== '') {
    q.set('identity', identity.value.trim());
    q.set('identityKind', identity.kind);
  }
  return q;
}

/** The same view on another page. */
export function withPage(view: QueueView, page: number): QueueView {
  return { ...view, page: Math.min(Math.max(1, page), MAX_PAGE) };
}
