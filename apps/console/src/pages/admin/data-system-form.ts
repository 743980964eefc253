import type { DataSystemAction, DataSystemMode, DataSystemPut, DataSystemView, IdentityType } from '@dsar/contracts';

/*
 * The form that registers or changes a data system (PUT /data-systems/{key}, libs/contracts/src/http/data-systems.ts):
 * its values as typed, the body they make, and what the console checks before sending (the API checks the rest and
 * answers with a problem). Pure: the page draws the fields.
 */

export const DATA_SYSTEM_ACTION_LABELS: Readonly<Record<DataSystemAction, string>> = {
  access: 'Access',
  erasure: 'Erasure',
  rectification: 'Rectification',
  restriction: 'Restriction',
  objection: 'Objection',
  opt_out: 'Opt-out',
};

export const IDENTITY_TYPE_LABELS: Readonly<Record<IdentityType, string>> = {
  email: 'Email address',
  phone: 'Phone number',
  account_id: 'Account id',
};

export const MODE_LABELS: Readonly<Record<DataSystemMode, string>> = {
  push: 'Push (an internal service consumes tasks)',
  pull: 'Pull (a job claims tasks over HTTP)',
  webhook: 'Webhook (the service calls an endpoint)',
  manual: 'Manual (a person answers)',
};

export type SlaTimeoutAction = 'skip' | 'pause';

export const ON_TIMEOUT_LABELS: Readonly<Record<SlaTimeoutAction, string>> = {
  pause: 'Wait for an operator',
  skip: 'Skip the task',
};

/** The form's values: text as typed, the lists as the boxes ticked. */
export interface DataSystemFormValues {
  key: string;
  displayName: string;
  ownerEmail: string;
  ownerSlack: string;
  actions: DataSystemAction[];
  identityTypes: IdentityType[];
  /** Comma or line separated. */
  dataCategories: string;
  /** Keys of the systems that come first, comma separated. */
  after: string;
  mode: DataSystemMode;
  webhookUrl: string;
  webhookSecret: string;
  expectedHours: string;
  timeoutHours: string;
  onTimeout: SlaTimeoutAction;
  paused: boolean;
  required: boolean;
}

/** The same rule as the contract's SYSTEM_KEY_PATTERN (the console may import types only). */
const SYSTEM_KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const WHOLE_NUMBER = /^\d{1,5}$/;
const HOURS_MAX = 24 * 366;

export function emptyDataSystemForm(): DataSystemFormValues {
  return {
    key: '',
    displayName: '',
    ownerEmail: '',
    ownerSlack: '',
    actions: [],
    identityTypes: ['email'],
    dataCategories: '',
    after: '',
    mode: 'manual',
    webhookUrl: '',
    webhookSecret: '',
    expectedHours: '72',
    timeoutHours: '168',
    onTimeout: 'pause',
    paused: false,
    required: true,
  };
}

/** The values that change a stored system: its definition, except the webhook secret, which the API never returns. */
export function formOfDataSystem(system: DataSystemView): DataSystemFormValues {
  return {
    key: system.key,
    displayName: system.displayName,
    ownerEmail: system.owner.email ?? '',
    ownerSlack: system.owner.slackChannel ?? '',
    actions: [...system.actions],
    identityTypes: [...system.identityTypes],
    dataCategories: system.dataCategories.join(', '),
    after: system.after.join(', '),
    mode: system.mode,
    webhookUrl: system.webhook?.url ?? '',
    webhookSecret: '',
    expectedHours: String(system.sla.expectedHours),
    timeoutHours: String(system.sla.timeoutHours),
    onTimeout: system.sla.onTimeout,
    paused: system.paused,
    required: system.required,
  };
}

/** A typed list: split at commas and line ends, trimmed, empty items and repeats dropped. */
export function listOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

export interface FormError {
  field: keyof DataSystemFormValues;
  message: string;
}

/** What the console can tell before sending; an empty list lets the API decide the rest. */
export function dataSystemFormErrors(values: DataSystemFormValues): FormError[] {
  const errors: FormError[] = [];
  if (!SYSTEM_KEY.test(values.key)) errors.push({ field: 'key', message: 'Use 1–63 lower-case letters, digits, _ or -, starting with a letter or digit.' });
  if (values.displayName.trim() === '') errors.push({ field: 'displayName', message: 'Give the system a name.' });
  if (values.ownerEmail.trim() === '' && values.ownerSlack.trim() === '') errors.push({ field: 'ownerEmail', message: 'Give an owner email address or a Slack channel.' });
  if (values.actions.length === 0) errors.push({ field: 'actions', message: 'Choose at least one thing the system does.' });
  if (values.identityTypes.length === 0) errors.push({ field: 'identityTypes', message: 'Choose at least one identity the system looks a person up by.' });
  const expected = hoursOf(values.expectedHours);
  const timeout = hoursOf(values.timeoutHours);
  if (expected === undefined) errors.push({ field: 'expectedHours', message: `Whole hours from 1 to ${HOURS_MAX}.` });
  if (timeout === undefined) errors.push({ field: 'timeoutHours', message: `Whole hours from 1 to ${HOURS_MAX}.` });
  else if (expected !== undefined && timeout < expected) errors.push({ field: 'timeoutHours', message: 'At least the expected hours.' });
  if (values.mode === 'webhook') {
    if (values.webhookUrl.trim() === '') errors.push({ field: 'webhookUrl', message: 'A webhook system needs its endpoint.' });
    if (values.webhookSecret.trim() === '') errors.push({ field: 'webhookSecret', message: 'Give the signing secret (it is never shown again, so give it on every change).' });
  }
  if (listOf(values.after).includes(values.key)) errors.push({ field: 'after', message: 'A system cannot come after itself.' });
  return errors;
}

function hoursOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!WHOLE_NUMBER.test(trimmed)) return undefined;
  const hours = Number(trimmed);
  return hours >= 1 && hours <= HOURS_MAX ? hours : undefined;
}

/** The PUT body of valid values (dataSystemFormErrors found nothing): the whole definition, as PUT replaces it. */
export function dataSystemBody(values: DataSystemFormValues): DataSystemPut {
  const owner: DataSystemPut['owner'] = {};
  if (values.ownerEmail.trim() !== '') owner.email = values.ownerEmail.trim();
  if (values.ownerSlack.trim() !== '') owner.slackChannel = values.ownerSlack.trim();
  return {
    displayName: values.displayName.trim(),
    owner,
    actions: [...values.actions],
    identityTypes: [...values.identityTypes],
    dataCategories: listOf(values.dataCategories),
    after: listOf(values.after),
    mode: values.mode,
    sla: { expectedHours: Number(values.expectedHours.trim()), timeoutHours: Number(values.timeoutHours.trim()), onTimeout: values.onTimeout },
    paused: values.paused,
    required: values.required,
    ...(values.mode === 'webhook' ? { webhook: { url: values.webhookUrl.trim(), secret: values.webhookSecret.trim() } } : {}),
  };
}

/** The path of one system. */
export function dataSystemPath(key: string): string {
  return `/data-systems/${encodeURIComponent(key)}`;
}

/** Toggles one item of a ticked list, keeping the order of `all`. */
export function toggled<T extends string>(all: readonly T[], ticked: readonly T[], item: T, on: boolean): T[] {
  return all.filter((candidate) => (candidate === item ? on : ticked.includes(candidate)));
}
