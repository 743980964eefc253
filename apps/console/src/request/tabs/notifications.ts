import type { NotificationAudience, NotificationHistory, NotificationKind, NotificationStatus, Permission } from '@dsar/contracts';

/*
 * A request's notification history (notification-routes.ts in the api-gateway) as the tab lists it: one row per
 * notification, with its channels, attempts and when it last went out.
 */

/** What a replay needs (the route table). */
export const REPLAY_PERMISSION: Permission = 'requests:act';

export const NOTIFICATION_KIND_LABELS: Readonly<Record<NotificationKind, string>> = {
  request_acknowledged: 'Request acknowledged',
  clarification_requested: 'Clarification requested',
  verification_requested: 'Verification requested',
  verification_reminder: 'Verification reminder',
  deadline_extended: 'Deadline extended',
  request_refused: 'Request refused',
  request_fulfilled: 'Request fulfilled',
  delivery_prepared: 'Delivery prepared',
  delivery_code: 'Delivery code',
  appeal_received: 'Appeal received',
  appeal_decided: 'Appeal decided',
  request_created: 'Request created',
  deadline_approaching: 'Deadline approaching',
  deadline_breached: 'Deadline breached',
  verification_expired: 'Verification expired',
  appeal_by_reply: 'Appeal by reply',
  message_parked: 'Message parked',
  daily_digest: 'Daily digest',
  notification_failed: 'Notification failed',
  task_escalated: 'Task escalated',
  duplicate_marked: 'Duplicate marked',
  task_assigned: 'Task assigned',
  task_overdue: 'Task overdue',
};

export const AUDIENCE_LABELS: Readonly<Record<NotificationAudience, string>> = {
  subject: 'Data subject',
  operators: 'Operators',
  owner: 'Data system owner',
};

export const NOTIFICATION_STATUS_LABELS: Readonly<Record<NotificationStatus, string>> = {
  pending: 'Pending',
  delivered: 'Delivered',
  retrying: 'Retrying',
  failed: 'Failed',
};

const CHANNEL_WORDS: Readonly<Record<string, string>> = { email: 'Email', chat: 'Chat' };

export interface NotificationRow {
  eventId: string;
  kind: NotificationKind;
  audience: NotificationAudience;
  /** The channels tried, in words ("Email, Chat"); empty before the first try. */
  channels: string;
  status: NotificationStatus;
  attempts: number;
  /** When it last reached someone: the newest delivered attempt; null when none did. */
  sentAt: string | null;
  /** Why the newest failed try failed, when the notification is not delivered. */
  lastError: string | null;
}

export function notificationRows(history: NotificationHistory): NotificationRow[] {
  return history.events.map((event) => {
    const channels = [...new Set(event.attempts.map((a) => a.channel))].map((c) => CHANNEL_WORDS[c] ?? c);
    const delivered = event.attempts.filter((a) => a.status === 'delivered').map((a) => a.createdAt);
    const sentAt = delivered.length > 0 ? delivered.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) : null;
    const failures = event.attempts.filter((a) => a.status !== 'delivered' && a.error);
    return {
      eventId: event.eventId,
      kind: event.eventType,
      audience: event.audience,
      channels: channels.join(', '),
      status: event.status,
      attempts: event.attempts.length,
      sentAt,
      lastError: event.status !== 'delivered' && failures.length > 0 ? (failures[failures.length - 1].error ?? null) : null,
    };
  });
}
