import { type DynamicModule, Module } from '@nestjs/common';
import { Clock } from '@dsar/platform/clock';
import { DeliveryLinkClient, LifecycleClient } from '@dsar/platform/http';
import { RequestClosures, RetentionSweeper, retentionParts } from '@dsar/platform/retention';
import { NotificationsController } from './api/notifications.controller';
import { DailyDigest } from './application/daily-digest';
import { DeadLetterWatch } from './application/dead-letter-watch';
import { Dispatcher, NOTIFIER_CHANNELS } from './application/dispatcher';
import { MessageComposer } from './application/message-composer';
import { NotificationHistoryService } from './application/notification-history';
import { NotificationLogPurger } from './application/notification-log-purger';
import { NotificationPurge } from './application/notification-purge';
import { Notifications } from './application/notifications';
import { DomainEventsHandler } from './events/domain-events.handler';
import { channelsFrom } from './infrastructure/notifier-channels';
import { NOTIFIER_SETTINGS, type NotifierSettings } from './notifier-settings';

/** The notifier: notifications of domain events to data subjects and operators, their sends with retries, history and replay. */
@Module({})
export class NotifierModule {
  static with(settings: NotifierSettings): DynamicModule {
    const retention = retentionParts([NotificationLogPurger], settings.retention);
    return {
      module: NotifierModule,
      controllers: [NotificationsController, DomainEventsHandler, ...retention.controllers],
      providers: [
        ...retention.providers,
        RequestClosures,
        { provide: NOTIFIER_SETTINGS, useValue: settings },
        { provide: NOTIFIER_CHANNELS, inject: [Clock], useFactory: (clock: Clock) => channelsFrom(settings, clock) },
        LifecycleClient,
        DeliveryLinkClient,
        Notifications,
        MessageComposer,
        Dispatcher,
        NotificationHistoryService,
        DeadLetterWatch,
        DailyDigest,
        NotificationPurge,
      ],
      exports: [Notifications, Dispatcher, DailyDigest, NotificationPurge, RetentionSweeper],
    };
  }
}
