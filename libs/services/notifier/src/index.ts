import type { ServiceDefinition } from '@dsar/platform/host';
import { retentionMigrations, RetentionRuleEntity } from '@dsar/platform/retention';
import { NotificationAttemptEntity } from './infrastructure/notification-attempt.entity';
import { NotificationEntity } from './infrastructure/notification.entity';
import { NotificationSendEntity } from './infrastructure/notification-send.entity';
import { Notifications1763700000500 } from './infrastructure/migrations/1763700000500-notifications';
import { OwnerNotifications1763700000510 } from './infrastructure/migrations/1763700000510-owner-notifications';
import { NotifierModule } from './notifier.module';
import { type NotifierSettings, notifierSettingsFrom } from './notifier-settings';

export { NotifierModule } from './notifier.module';
export { Dispatcher } from './application/dispatcher';
export { DailyDigest } from './application/daily-digest';
export { NotificationPurge } from './application/notification-purge';
export { type NotifierConfig, notifierFields, type NotifierSettings, notifierSettingsFrom, requirePortalUrl } from './notifier-settings';

/** notifier turns domain events into email and chat notifications and keeps their history, on the given settings. */
export function notifierServiceWith(settings: NotifierSettings): ServiceDefinition {
  return {
    name: 'notifier',
    module: NotifierModule.with(settings),
    persistence: true,
    entities: [NotificationEntity, NotificationSendEntity, NotificationAttemptEntity, RetentionRuleEntity],
    migrations: [...retentionMigrations, Notifications1763700000500, OwnerNotifications1763700000510],
    // lifecycle-clock: the request a message is about; fulfilment-delivery: the link of a delivery by email.
    calls: ['lifecycle-clock', 'fulfilment-delivery'],
  };
}

/** notifier with its dispatcher off (nothing is sent): the definition for migrations and tooling. */
export const notifierService: ServiceDefinition = notifierServiceWith(notifierSettingsFrom({}));
