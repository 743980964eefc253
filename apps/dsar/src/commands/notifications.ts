import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { EXAMPLE_IDS, type Kit } from '../kit';

const ID = EXAMPLE_IDS.request;

/** Notifications of a request and their replay (docs/notifications.md). */
export function notificationsCommands(program: Command, kit: Kit): void {
  const notifications = program.command('notifications').description('the notifications of a request, and sending one again');
  kit.api(notifications, {
    name: 'list <id>',
    summary: 'every notification of the request with its attempts (GET /requests/:id/notifications)',
    endpoint: ENDPOINTS.getNotificationHistory,
    view: { columns: { events: ['eventId', 'eventType', 'audience', 'status', 'createdAt'] } },
    examples: [`dsar notifications list ${ID}`],
  });
  kit.api(notifications, {
    name: 'replay <id> <eventId>',
    summary: 'send a notification again on each of its channels (POST /requests/:id/notifications/:eventId/replay)',
    endpoint: ENDPOINTS.replayNotification,
    examples: [`dsar notifications replay ${ID} 5f0c9b1e-3a2d-4c8e-9f7a-6b5c4d3e2f1a`],
  });
}
