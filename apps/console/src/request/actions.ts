import type { LifecycleAction, Permission } from '@dsar/contracts';
import {
  ACTION_LABELS,
  CHANNEL_LABELS,
  CLOSURE_REASON_LABELS,
  PAUSE_REASON_LABELS,
  REFUSAL_REASON_LABELS,
  REQUEST_TYPE_LABELS,
  VERIFICATION_LEVEL_LABELS,
  VERIFICATION_METHOD_LABELS,
  VERIFICATION_REJECTION_LABELS,
} from '../labels';

/*
 * The workflow actions the request page offers, each with its form: the route it calls (lifecycle-routes.ts,
 * verification-routes.ts, fulfilment-routes.ts in the api-gateway) and how the form's values become the command's
 * body (the commands in libs/contracts). Pure: the page draws the fields and sends the body.
 */

export interface Option {
  value: string;
  label: string;
}

interface FieldBase {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
}

export type FieldSpec =
  | (FieldBase & { kind: 'select'; options: Option[]; /** The option for "leave it to the API"; absent: a choice is required. */ emptyLabel?: string })
  | (FieldBase & { kind: 'text' | 'textarea'; maxLength: number; pattern?: string })
  | (FieldBase & { kind: 'number'; min: number; max: number })
  | (FieldBase & { kind: 'datetime' })
  | (FieldBase & { kind: 'checkbox'; initial: boolean })
  /** A jurisdiction code: a select of the known ones when the page could list them, else a text field. */
  | (FieldBase & { kind: 'jurisdiction' });

/** A form's values by field name: text as typed, 'true'/'false' for a checkbox. */
export type FormValues = Readonly<Record<string, string>>;

export interface ActionSpec {
  action: LifecycleAction;
  /** The button's name: the action in words. */
  label: string;
  /** One sentence under the form's heading: what the action does. */
  description: string;
  method: 'POST' | 'PUT';
  path: (requestId: string) => string;
  fields: FieldSpec[];
  body: (values: FormValues) => Record<string, unknown>;
}

/** What every workflow action needs (the roles table, docs/security.md). */
export const ACT_PERMISSION: Permission = 'requests:act';

const optionsOf = (labels: Readonly<Record<string, string>>): Option[] => Object.entries(labels).map(([value, label]) => ({ value, label }));

const requestPath = (suffix: string) => (id: string) => `/requests/${encodeURIComponent(id)}${suffix}`;

/** A `datetime-local` value (the browser's zone) as the API's instant; '' stays absent. */
export function instantOfLocal(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The body with only the fields that have a value: an empty field leaves the choice to the API's default. */
function present(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== ''));
}

const trimmed = (value: string | undefined) => (value === undefined ? undefined : value.trim() || undefined);
const wholeNumber = (value: string | undefined) => (value && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : undefined);

const channelField: FieldSpec = { name: 'channel', label: 'Channel', kind: 'select', options: optionsOf(CHANNEL_LABELS), emptyLabel: "The request's channel" };

export const ACTION_SPECS: readonly ActionSpec[] = [
  {
    action: 'acknowledge',
    label: ACTION_LABELS.acknowledge,
    description: 'Records that the requester was told the request was received.',
    method: 'POST',
    path: requestPath('/acknowledgements'),
    fields: [{ name: 'message', label: 'Message sent to the requester', kind: 'textarea', maxLength: 10_000 }, channelField],
    body: (v) => present({ message: trimmed(v.message), channel: v.channel }),
  },
  {
    action: 'request_clarification',
    label: ACTION_LABELS.request_clarification,
    description: 'Asks the requester to clarify the request; the clock pauses as the policy pack says.',
    method: 'POST',
    path: requestPath('/clarifications/request'),
    fields: [{ name: 'message', label: 'What the requester is asked', kind: 'textarea', maxLength: 10_000, required: true }, channelField],
    body: (v) => present({ message: trimmed(v.message), channel: v.channel }),
  },
  {
    action: 'receive_clarification',
    label: ACTION_LABELS.receive_clarification,
    description: "Records the requester's answer; the clock resumes when it arrived.",
    method: 'POST',
    path: requestPath('/clarifications/receive'),
    fields: [
      { name: 'message', label: "The requester's answer", kind: 'textarea', maxLength: 100_000 },
      { name: 'receivedAt', label: 'Received at', kind: 'datetime', hint: 'Default now.' },
    ],
    body: (v) => present({ message: trimmed(v.message), receivedAt: instantOfLocal(v.receivedAt) }),
  },
  {
    action: 'request_verification',
    label: ACTION_LABELS.request_verification,
    description: 'Opens an identity verification case; the request waits for it.',
    method: 'POST',
    path: requestPath('/verification/request'),
    fields: [
      { name: 'level', label: 'Level', kind: 'select', options: optionsOf(VERIFICATION_LEVEL_LABELS), emptyLabel: 'By request type' },
      { name: 'method', label: 'Method', kind: 'select', options: optionsOf(VERIFICATION_METHOD_LABELS), emptyLabel: 'Manual comparison (default)' },
      { name: 'reasonForDoubt', label: 'Why the identity is in doubt', kind: 'textarea', maxLength: 2000 },
      { name: 'pauseClock', label: 'Pause the clock while identity is checked', kind: 'checkbox', initial: true },
    ],
    body: (v) => present({ level: v.level, method: v.method, reasonForDoubt: trimmed(v.reasonForDoubt), pauseClock: v.pauseClock === 'false' ? false : undefined }),
  },
  {
    action: 'approve_verification',
    label: ACTION_LABELS.approve_verification,
    description: "Confirms the requester's identity; the request goes on.",
    method: 'POST',
    path: requestPath('/verification/approve'),
    fields: [
      { name: 'method', label: 'How identity was established', kind: 'select', options: optionsOf(VERIFICATION_METHOD_LABELS), emptyLabel: "The case's method" },
      { name: 'note', label: 'Note', kind: 'textarea', maxLength: 2000 },
    ],
    body: (v) => present({ method: v.method, note: trimmed(v.note) }),
  },
  {
    action: 'reject_verification',
    label: ACTION_LABELS.reject_verification,
    description: 'Rejects the identity evidence: the request is refused as not verified.',
    method: 'POST',
    path: requestPath('/verification/reject'),
    fields: [
      { name: 'reason', label: 'Reason', kind: 'select', options: optionsOf(VERIFICATION_REJECTION_LABELS), emptyLabel: 'Insufficient evidence (default)' },
      { name: 'message', label: 'What the person is told', kind: 'textarea', maxLength: 10_000 },
    ],
    body: (v) => present({ reason: v.reason, message: trimmed(v.message) }),
  },
  {
    action: 'fulfil',
    label: ACTION_LABELS.fulfil,
    description: 'Fulfils the request with its manifest as it is.',
    method: 'POST',
    path: requestPath('/fulfilment'),
    fields: [
      {
        name: 'overrideReason',
        label: 'Override: why fulfil although data systems have not answered',
        kind: 'textarea',
        maxLength: 2000,
        hint: 'Leave empty unless the API refused because tasks are open; the reason is recorded in the audit chain.',
      },
    ],
    body: (v) => {
      const reason = trimmed(v.overrideReason);
      return reason ? { override: { reason } } : {};
    },
  },
  {
    action: 'refuse',
    label: ACTION_LABELS.refuse,
    description: 'Refuses the request; the requester is told why and of their right to complain.',
    method: 'POST',
    path: requestPath('/refusals'),
    fields: [
      { name: 'reason', label: 'Reason', kind: 'select', options: optionsOf(REFUSAL_REASON_LABELS), required: true },
      { name: 'rationale', label: 'Internal note (rationale)', kind: 'textarea', maxLength: 10_000, hint: 'Kept for the record; not sent to the requester.' },
      { name: 'message', label: 'Message to the requester', kind: 'textarea', maxLength: 10_000, hint: 'Default: a notice built from the reason.' },
    ],
    body: (v) => present({ reason: v.reason, rationale: trimmed(v.rationale), message: trimmed(v.message) }),
  },
  {
    action: 'close',
    label: ACTION_LABELS.close,
    description: 'Closes the request.',
    method: 'POST',
    path: requestPath('/closures'),
    fields: [
      { name: 'reason', label: 'Reason', kind: 'select', options: optionsOf(CLOSURE_REASON_LABELS), emptyLabel: 'Withdrawn if open, completed if finished' },
      { name: 'message', label: 'Message', kind: 'textarea', maxLength: 10_000 },
    ],
    body: (v) => present({ reason: v.reason, message: trimmed(v.message) }),
  },
  {
    action: 'correct_request',
    label: ACTION_LABELS.correct_request,
    description: 'Corrects the type or jurisdiction intake misread; the deadline is computed again from the same receipt.',
    method: 'POST',
    path: requestPath('/corrections'),
    fields: [
      { name: 'requestType', label: 'Request type', kind: 'select', options: optionsOf(REQUEST_TYPE_LABELS), emptyLabel: 'Unchanged' },
      { name: 'jurisdiction', label: 'Jurisdiction', kind: 'jurisdiction' },
      { name: 'reason', label: 'Reason for the correction', kind: 'textarea', maxLength: 2000, required: true },
    ],
    body: (v) => present({ requestType: v.requestType, jurisdiction: trimmed(v.jurisdiction)?.toUpperCase(), reason: trimmed(v.reason) }),
  },
  {
    action: 'resolve_duplicate',
    label: ACTION_LABELS.resolve_duplicate,
    description: 'Decides a duplicate mark: the same request (refused as a duplicate) or a request of its own.',
    method: 'POST',
    path: requestPath('/duplicate-resolution'),
    fields: [
      {
        name: 'resolution',
        label: 'Decision',
        kind: 'select',
        required: true,
        options: [
          { value: 'confirmed', label: 'Confirm: the same request (refuse it as a duplicate)' },
          { value: 'separated', label: 'Separate: a request of its own' },
        ],
      },
      { name: 'reason', label: 'Reason', kind: 'textarea', maxLength: 2000, required: true },
    ],
    body: (v) => present({ resolution: v.resolution, reason: trimmed(v.reason) }),
  },
  {
    action: 'extend_deadline',
    label: ACTION_LABELS.extend_deadline,
    description: "Extends the deadline as the request's policy pack allows; the requester is told.",
    method: 'POST',
    path: requestPath('/extensions'),
    fields: [
      { name: 'reason', label: 'Reasons for the delay, as the requester is told them', kind: 'textarea', maxLength: 2000 },
      { name: 'additionalDays', label: 'Additional days', kind: 'number', min: 1, max: 366, hint: "Leave both amounts empty to take what is left of the pack's maximum." },
      { name: 'additionalMonths', label: 'Additional months', kind: 'number', min: 1, max: 12 },
      { name: 'justification', label: 'Justification label', kind: 'text', maxLength: 64, pattern: '[a-z][a-z0-9_]*', hint: 'snake_case, such as complexity; default policy_extension.' },
    ],
    body: (v) => present({ reason: trimmed(v.reason), additionalDays: wholeNumber(v.additionalDays), additionalMonths: wholeNumber(v.additionalMonths), justification: trimmed(v.justification) }),
  },
  {
    action: 'pause_clock',
    label: ACTION_LABELS.pause_clock,
    description: 'Records a pause of the legal clock; the policy pack decides what it does.',
    method: 'POST',
    path: requestPath('/clock/pauses'),
    fields: [
      { name: 'reason', label: 'Reason', kind: 'select', options: optionsOf(PAUSE_REASON_LABELS), required: true },
      { name: 'at', label: 'Paused at', kind: 'datetime', hint: 'Default now.' },
      { name: 'note', label: 'Note', kind: 'textarea', maxLength: 2000 },
    ],
    body: (v) => present({ reason: v.reason, at: instantOfLocal(v.at), note: trimmed(v.note) }),
  },
  {
    action: 'resume_clock',
    label: ACTION_LABELS.resume_clock,
    description: "Ends the clock's open pause.",
    method: 'POST',
    path: requestPath('/clock/resume'),
    fields: [
      { name: 'at', label: 'Resumed at', kind: 'datetime', hint: 'Default now.' },
      { name: 'note', label: 'Note', kind: 'textarea', maxLength: 2000 },
    ],
    body: (v) => present({ at: instantOfLocal(v.at), note: trimmed(v.note) }),
  },
];

/**
 * The actions to offer: those the request allows now (`allowedActions`, in its order) that the console has a form
 * for, and none when the caller's permissions do not include `requests:act` (the API would refuse them anyway).
 */
export function offeredActions(allowed: readonly LifecycleAction[], permissions: readonly string[]): ActionSpec[] {
  if (!permissions.includes(ACT_PERMISSION)) return [];
  return allowed.flatMap((action) => ACTION_SPECS.filter((spec) => spec.action === action));
}

/** The values a form opens with: each checkbox as it starts, everything else empty. */
export function initialValues(spec: ActionSpec): Record<string, string> {
  return Object.fromEntries(spec.fields.map((f) => [f.name, f.kind === 'checkbox' ? String(f.initial) : '']));
}

/** The required fields left empty, by name. */
export function missingFields(spec: ActionSpec, values: FormValues): string[] {
  return spec.fields.filter((f) => f.required && !(values[f.name] ?? '').trim()).map((f) => f.name);
}
