import { z } from 'zod';
import { NOTIFICATION_AUDIENCES, NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from '../http/notifications';
import { timestamp } from '../http/fields';
import type { EventTypeDefinition } from './event-catalog';
import { requestSubject } from './request-events';
import { Topics } from './topics';

/**
 * Facts of notifications, owned by the notifier, keyed by request id so they
 * land on the request's timeline and audit chain. Addresses, names and the
 * words sent stay out: an event says which kind of message went out on which
 * channel, not to whom or what it said.
 */
const facts = {
  ...requestSubject,
  /** The notification (GET …/notifications lists it with its attempts). */
  notificationId: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  audience: z.enum(NOTIFICATION_AUDIENCES),
  occurredAt: timestamp,
};

export const notificationDeliveredV1 = z.object({
  ...facts,
  channel: z.enum(NOTIFICATION_CHANNELS),
  attempt: z.number().int().positive(),
  /** The domain event the message was about; null for operator alerts of the notifier's own. */
  sourceEventId: z.uuid().nullable(),
});
export type NotificationDeliveredV1 = z.infer<typeof notificationDeliveredV1>;

export const notificationFailedV1 = z.object({
  ...facts,
  channel: z.enum(NOTIFICATION_CHANNELS),
  attempt: z.number().int().positive(),
  /** True for a refusal (SMTP 5xx, an unknown channel, no address); false when the tries ran out. */
  permanent: z.boolean(),
});
export type NotificationFailedV1 = z.infer<typeof notificationFailedV1>;

export const notificationReplayedV1 = z.object({
  ...facts,
  actor: z.string().min(1),
  /** `contact_corrected`: sent again because the request's contact details were corrected (`actor` corrected them); absent for a replay by hand. */
  cause: z.enum(['contact_corrected']).optional(),
});
export type NotificationReplayedV1 = z.infer<typeof notificationReplayedV1>;

export const notificationsPurgedV1 = z.object({ ...requestSubject, occurredAt: timestamp, notificationIds: z.array(z.uuid()), attempts: z.number().int().nonnegative() });
export type NotificationsPurgedV1 = z.infer<typeof notificationsPurgedV1>;

export const NotificationEventTypes = {
  delivered: 'dsar.notification.delivered.v1',
  failed: 'dsar.notification.failed.v1',
  replayed: 'dsar.notification.replayed.v1',
  purged: 'dsar.notification.purged.v1',
} as const;

const define = (type: string, schema: z.ZodType, description: string): EventTypeDefinition => ({ type, topic: Topics.notification, schema, producer: 'notifier', description });

export const notificationEventDefinitions: EventTypeDefinition[] = [
  define(NotificationEventTypes.delivered, notificationDeliveredV1, 'A notification reached its channel (the SMTP server accepted the email, Slack the message).'),
  define(NotificationEventTypes.failed, notificationFailedV1, 'A notification could not be delivered on a channel: refused permanently, or out of tries. Operators are alerted.'),
  define(
    NotificationEventTypes.replayed,
    notificationReplayedV1,
    'An operator had a notification sent again, as a new attempt; or a correction of the contact details did, for a notification that had found no address (`cause: contact_corrected`).',
  ),
  define(NotificationEventTypes.purged, notificationsPurgedV1, 'Notification records of a request were deleted (retention class notification_log).'),
];
