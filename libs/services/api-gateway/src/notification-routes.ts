import { type ErrorName, notificationHistory, notificationReplayed } from '@dsar/contracts';
import type { GatewayRoute } from './route-types';

const IDEMPOTENCY: ErrorName[] = ['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];

/** Public routes of the notifier: a request's notification history and the replay of one notification (docs/notifications.md). */
export const NOTIFICATION_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/requests/:id/notifications',
    service: 'notifier',
    permission: 'requests:read',
    operationId: 'getNotificationHistory',
    summary: 'The notifications of a request, with their attempts',
    description:
      'Every message sent, being sent or given up on because of the request, oldest first: to the data subject (`audience: subject`, by email) and to operators (`audience: operators`, by Slack and email). `eventType` is what the message is about (docs/notifications.md lists them); `status` is `pending`, `delivered`, `retrying` or `failed`; each attempt is `{attempt, channel, destination, status, createdAt, error?}` with the destination masked. Notifications follow their domain events within moments (the history may lag an action by that much). Retention class `notification_log`.',
    tag: 'Notifications',
    response: { status: 200, schema: notificationHistory, description: 'The history; empty when nothing was sent.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/requests/:id/notifications/:eventId/replay',
    service: 'notifier',
    permission: 'requests:act',
    operationId: 'replayNotification',
    summary: 'Send a notification again',
    description:
      'Sends the notification again on each of its channels, as new attempts (with the words, address and language the request has now), whatever its status. A notification of another request, or none: 404. Emits `dsar.notification.replayed.v1`, then `dsar.notification.delivered.v1` or `…failed.v1` per channel.',
    tag: 'Notifications',
    response: { status: 202, schema: notificationReplayed, description: 'The notification is due again.' },
    errors: ['RESOURCE_NOT_FOUND', ...IDEMPOTENCY],
  },
];
