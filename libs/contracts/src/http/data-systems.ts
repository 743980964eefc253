import { z } from 'zod';
import { emailAddress, text, timestamp } from './fields';
import type { RequestType } from './request-kinds';

/**
 * HTTP contracts of the data-system registry (docs/data-systems.md): the
 * systems of a tenant that hold personal data, what each does for a request,
 * how it is reached and how long it may take. fulfilment-delivery owns them.
 */

/** What a data system can be asked to do for a request. */
export const DATA_SYSTEM_ACTIONS = ['access', 'erasure', 'rectification', 'restriction', 'objection', 'opt_out'] as const;
export type DataSystemAction = (typeof DATA_SYSTEM_ACTIONS)[number];

/** The identities a system can look a person up by; a task carries only the types its system registered. */
export const IDENTITY_TYPES = ['email', 'phone', 'account_id'] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];

/**
 * How a system gets its tasks: `push` an internal service consuming dsar.task.v1, `pull` a job listing its pending
 * tasks over HTTP, `webhook` an endpoint the service calls (signed per Standard Webhooks), `manual` a person.
 */
export const DATA_SYSTEM_MODES = ['push', 'pull', 'webhook', 'manual'] as const;
export type DataSystemMode = (typeof DATA_SYSTEM_MODES)[number];

export const SLA_TIMEOUT_ACTIONS = ['skip', 'pause'] as const;

/** A system's key: lower-case letters, digits, `_` and `-`, up to 63 characters, starting with a letter or digit. */
export const SYSTEM_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const systemKey = z.string().regex(SYSTEM_KEY_PATTERN, 'must be 1–63 lower-case letters, digits, _ or -, starting with a letter or digit');

/** The action a request of the type asks of a data system. */
export function actionOfRequestType(type: RequestType): DataSystemAction {
  switch (type) {
    case 'access':
    case 'portability':
      return 'access';
    case 'deletion':
      return 'erasure';
    default:
      return type;
  }
}

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

const HOURS_MAX = 24 * 366;

export const dataSystemOwner = z
  .strictObject({
    email: emailAddress().optional().describe('Where reminders and new manual tasks are sent'),
    slackChannel: z
      .string()
      .regex(/^[#@]?[A-Za-z0-9._-]{1,80}$/, 'must be a Slack channel name or id, e.g. #privacy-crm or C0123456')
      .optional()
      .describe('A Slack channel told as well (or instead)'),
  })
  .describe('At least one of the two, else the definition is refused (422 `SVC-BE-1802`)')
  .meta({ id: 'DataSystemOwner' });

export const dataSystemSla = z
  .strictObject({
    expectedHours: z.number().int().min(1).max(HOURS_MAX).describe("The system's own due date after its task is created; never later than the request's legal due date"),
    timeoutHours: z.number().int().min(1).max(HOURS_MAX).describe('After this, the task times out and `onTimeout` applies; at least `expectedHours`'),
    onTimeout: z.enum(SLA_TIMEOUT_ACTIONS).describe('`skip`: the task is skipped with reason `timed_out`; `pause`: it waits for an operator (`action_required`) and operators are alerted'),
  })
  .meta({ id: 'DataSystemSla' });

export const DEFAULT_SLA = { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause' } as const;

/** Items in the order given, each once: a list that repeats an item means the same as one that does not. */
const once = <T>(items: T[]): T[] => [...new Set(items)];

const dataSystemFields = {
  displayName: text(200),
  owner: dataSystemOwner,
  actions: z.array(z.enum(DATA_SYSTEM_ACTIONS)).min(1).max(DATA_SYSTEM_ACTIONS.length).describe('What the system does for a request'),
  identityTypes: z.array(z.enum(IDENTITY_TYPES)).min(1).max(IDENTITY_TYPES.length).describe('The identities the system looks a person up by; its tasks carry only these'),
  dataCategories: z.array(text(200)).max(100).describe('The categories of personal data the system holds (`contact_details`, `orders`…)'),
  after: z.array(systemKey).max(20).describe('Systems whose task for the same request must finish first (e.g. erase the warehouse after its source)'),
  mode: z.enum(DATA_SYSTEM_MODES),
  sla: dataSystemSla,
  paused: z.boolean().describe('A paused system gets no new work: its tasks wait until it is resumed'),
  required: z.boolean().describe("Whether the request's fulfilment waits for this system's answer"),
};

export const dataSystemPut = z
  .strictObject({
    ...dataSystemFields,
    // A repeated item is kept once (the lists are sets).
    actions: dataSystemFields.actions.transform(once),
    identityTypes: dataSystemFields.identityTypes.transform(once),
    dataCategories: dataSystemFields.dataCategories.transform(once).optional().describe('Default: none'),
    after: dataSystemFields.after.transform(once).optional().describe('Default: none'),
    sla: dataSystemSla.optional().describe(`Default: ${DEFAULT_SLA.expectedHours} hours expected, timeout after ${DEFAULT_SLA.timeoutHours}, then \`${DEFAULT_SLA.onTimeout}\``),
    paused: z.boolean().optional().describe('Default: false'),
    required: z.boolean().optional().describe('Default: true'),
    webhook: z
      .strictObject({
        url: z
          .string()
          .max(2048)
          .regex(/^https?:\/\/[!-~\u00A0-\uFFFF]+$/, 'must be an http or https URL without spaces or control characters')
          .describe('Where tasks are POSTed; https (http only where DATA_SYSTEM_WEBHOOK_ALLOW_HTTP allows it)'),
        secret: z.string().regex(WEBHOOK_SECRET_PATTERN, 'must be a Standard Webhooks secret: whsec_ and base64 of 24 to 64 bytes').describe('The signing secret; write-only (never returned)'),
      })
      .optional()
      .describe('Required with mode `webhook`, refused with the others'),
  })
  .meta({ id: 'DataSystemPut' });
export type DataSystemPut = z.infer<typeof dataSystemPut>;

export const dataSystemView = z
  .object({
    key: systemKey,
    ...dataSystemFields,
    // Optional, as in the PUT body: one shape of the field in requests and answers.
    webhook: z
      .object({ url: z.string(), secretSet: z.literal(true) })
      .optional()
      .describe('Present for a webhook system: its endpoint; its secret is never returned'),
    version: z.number().int().positive().describe('Counts the replacements of the definition'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'DataSystem' });
export type DataSystemView = z.infer<typeof dataSystemView>;

export const dataSystemList = z.object({ items: z.array(dataSystemView) }).meta({ id: 'DataSystemList' });
