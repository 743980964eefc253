import type { IdentityKind, RequestStatus } from '@dsar/contracts';
import { CHANNEL_LABELS, IDENTITY_KIND_LABELS, keysOf, REQUEST_TYPE_LABELS } from '../labels';
import { DEFAULT_SORT, type IdentitySearch, JURISDICTION_PATTERN, MAX_AT_RISK_DAYS, type QueueView, REFERENCE_PATTERN, SORT_FIELDS, validDate } from './view-state';

/** A yes/no filter as its select holds it: '' for either. */
export type FlagChoice = '' | 'true' | 'false';

/** The queue's filter form, as its controls hold it (text as typed). */
export interface FilterForm {
  status: RequestStatus[];
  requestType: string;
  jurisdiction: string;
  channel: string;
  receivedFrom: string;
  receivedBefore: string;
  atRiskDays: string;
  overdue: boolean;
  waitingOnSystems: FlagChoice;
  triage: FlagChoice;
  duplicate: FlagChoice;
  reference: string;
  identity: string;
  identityKind: IdentityKind;
  sortBy: string;
  sortOrder: string;
}

export type FilterErrors = Partial<Record<keyof FilterForm, string>>;

/** The longest identity the API takes (IDENTITY_VALUE_MAX_LENGTH in the contracts). */
export const IDENTITY_MAX_LENGTH = 512;

const choice = (value: boolean | undefined): FlagChoice => (value === undefined ? '' : value ? 'true' : 'false');
const flagOf = (value: FlagChoice): boolean | undefined => (value === '' ? undefined : value === 'true');

export function formOfView(view: QueueView, identity: IdentitySearch | null): FilterForm {
  return {
    status: [...view.status],
    requestType: view.requestType ?? '',
    jurisdiction: view.jurisdiction ?? '',
    channel: view.channel ?? '',
    receivedFrom: view.receivedFrom ?? '',
    receivedBefore: view.receivedBefore ?? '',
    atRiskDays: view.atRiskDays === undefined ? '' : String(view.atRiskDays),
    overdue: view.overdue,
    waitingOnSystems: choice(view.waitingOnSystems),
    triage: choice(view.triage),
    duplicate: choice(view.duplicate),
    reference: view.reference ?? '',
    identity: identity?.value ?? '',
    identityKind: identity?.kind ?? 'email',
    sortBy: view.sortBy,
    sortOrder: view.sortOrder,
  };
}

/**
 * The view and the identity search a submitted form asks for, back on page 1, or what is wrong with the form, field
 * by field (nothing is applied then).
 */
export function viewOfForm(form: FilterForm): { view: QueueView; identity: IdentitySearch | null; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const view: QueueView = {
    status: [...form.status],
    overdue: form.overdue,
    sortBy: (SORT_FIELDS as readonly string[]).includes(form.sortBy) ? (form.sortBy as QueueView['sortBy']) : DEFAULT_SORT.sortBy,
    sortOrder: form.sortOrder === 'asc' || form.sortOrder === 'desc' ? form.sortOrder : DEFAULT_SORT.sortOrder,
    page: 1,
  };
  if (keysOf(REQUEST_TYPE_LABELS).some((t) => t === form.requestType)) view.requestType = form.requestType as QueueView['requestType'];
  if (keysOf(CHANNEL_LABELS).some((c) => c === form.channel)) view.channel = form.channel as QueueView['channel'];
  const jurisdiction = form.jurisdiction.trim();
  if (jurisdiction !== '') {
    if (JURISDICTION_PATTERN.test(jurisdiction)) view.jurisdiction = jurisdiction.toUpperCase();
    else errors.jurisdiction = 'A jurisdiction code, such as DE, EU or US-CA.';
  }
  for (const name of ['receivedFrom', 'receivedBefore'] as const) {
    if (form[name] === '') continue;
    const date = validDate(form[name]);
    if (date) view[name] = date;
    else errors[name] = 'A date, such as 2026-03-01.';
  }
  const atRisk = form.atRiskDays.trim();
  if (atRisk !== '') {
    const days = /^\d{1,4}$/.test(atRisk) ? Number(atRisk) : NaN;
    if (days <= MAX_AT_RISK_DAYS) view.atRiskDays = days;
    else errors.atRiskDays = `A whole number of days from 0 to ${MAX_AT_RISK_DAYS}.`;
  }
  const waitingOnSystems = flagOf(form.waitingOnSystems);
  if (waitingOnSystems !== undefined) view.waitingOnSystems = waitingOnSystems;
  const triage = flagOf(form.triage);
  if (triage !== undefined) view.triage = triage;
  const duplicate = flagOf(form.duplicate);
  if (duplicate !== undefined) view.duplicate = duplicate;
  const reference = form.reference.trim();
  if (reference !== '') {
    if (REFERENCE_PATTERN.test(reference)) view.reference = reference.toUpperCase();
    else errors.reference = 'A reference is DSAR- and eight hex digits, such as DSAR-1A2B3C4D.';
  }
  const identity = form.identity.trim();
  if (identity.length > IDENTITY_MAX_LENGTH) errors.identity = `At most ${IDENTITY_MAX_LENGTH} characters.`;
  const kind = keysOf(IDENTITY_KIND_LABELS).find((k) => k === form.identityKind) ?? 'email';
  return { view, identity: identity === '' ? null : { value: identity, kind }, errors };
}
