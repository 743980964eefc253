import { z } from 'zod';
import { timestamp } from './fields';

/**
 * HTTP contracts of notifications (docs/notifications.md): the messages the
 * notifier sends to data subjects (by email), operators (by Slack and email)
 * and the owners of data systems (by email or Slack) because of a domain
 * event, each with its delivery attempts.
 */

/** What the data subject is told, one kind per domain event that concerns them. */
export const SUBJECT_NOTIFICATION_KINDS = [
  'request_acknowledged',
  'clarification_requested',
  'verification_requested',
  'verification_reminder',
  'deadline_extended',
  'request_refused',
  'request_fulfilled',
  'delivery_prepared',
  'delivery_code',
  'appeal_received',
  'appeal_decided',
] as const;

/** What operators are told: no personal data, only references, types, dates and codes. */
export const OPERATOR_NOTIFICATION_KINDS = [
  'request_created',
  'deadline_approaching',
  'deadline_breached',
  'verification_expired',
  'appeal_by_reply',
  'message_parked',
  'daily_digest',
  'notification_failed',
  'task_escalated',
  'duplicate_marked',
] as const;

/**
 * What the owner of a data system is told of its tasks (docs/data-systems.md#chasing), at the address the system's
 * registration gives: like operators' messages, references, codes and dates only, never the task's token or identities.
 */
export const OWNER_NOTIFICATION_KINDS = ['task_assigned', 'task_overdue'] as const;

export const NOTIFICATION_KINDS = [...SUBJECT_NOTIFICATION_KINDS, ...OPERATOR_NOTIFICATION_KINDS, ...OWNER_NOTIFICATION_KINDS] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type SubjectNotificationKind = (typeof SUBJECT_NOTIFICATION_KINDS)[number];
export type OperatorNotificationKind = (typeof OPERATOR_NOTIFICATION_KINDS)[number];
export type OwnerNotificationKind = (typeof OWNER_NOTIFICATION_KINDS)[number];

/** `owner`: the owner of the data system a task is for (its email address or Slack channel). */
export const NOTIFICATION_AUDIENCES = ['subject', 'operators', 'owner'] as const;
export type NotificationAudience = (typeof NOTIFICATION_AUDIENCES)[number];

export const NOTIFICATION_CHANNELS = ['email', 'chat'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** A notification: `pending` (not tried yet), `delivered` (every channel), `retrying` (a transient failure, tried again later), `failed` (given up on a channel). */
export const NOTIFICATION_STATUSES = ['pending', 'delivered', 'retrying', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** One try: `delivered`, `retrying` (failed, tried again later) or `failed` (permanently, or out of tries). */
export const NOTIFICATION_ATTEMPT_STATUSES = ['delivered', 'retrying', 'failed'] as const;

export const notificationAttempt = z
  .object({
    attempt: z.number().int().positive().describe('1, 2, … across all channels of the notification, in the order they were made'),
    channel: z.enum(NOTIFICATION_CHANNELS),
    destination: z.string().describe('Masked: `a***@example.org`, `#p***`'),
    status: z.enum(NOTIFICATION_ATTEMPT_STATUSES),
    createdAt: timestamp,
    error: z.string().optional().describe('Why the try failed (no personal data)'),
  })
  .meta({ id: 'NotificationAttempt' });
export type NotificationAttempt = z.infer<typeof notificationAttempt>;

export const notificationEvent = z
  .object({
    eventId: z.uuid().describe("The notification's id (replay takes it)"),
    eventType: z.enum(NOTIFICATION_KINDS).describe('What the message is about'),
    audience: z.enum(NOTIFICATION_AUDIENCES).describe('`subject` (the data subject), `operators`, or `owner` (the owner of a data system, for its task)'),
    status: z.enum(NOTIFICATION_STATUSES),
    createdAt: timestamp,
    attempts: z.array(notificationAttempt),
  })
  .meta({ id: 'NotificationEvent' });
export type NotificationEventView = z.infer<typeof notificationEvent>;

export const notificationHistory = z
  .object({
    requestId: z.uuid(),
    events: z.array(notificationEvent).describe('Oldest first'),
  })
  .meta({ id: 'NotificationHistory' });
export type NotificationHistory = z.infer<typeof notificationHistory>;

export const notificationReplayed = z.object({ eventId: z.uuid(), status: z.literal('replayed') }).meta({ id: 'NotificationReplayed' });
export type NotificationReplayed = z.infer<typeof notificationReplayed>;
