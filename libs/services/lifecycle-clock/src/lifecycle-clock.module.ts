import { type DynamicModule, Module } from '@nestjs/common';
import { type RetentionSettings, retentionParts } from '@dsar/platform/retention';
import { AppealsController } from './api/appeals.controller';
import { ClockController } from './api/clock.controller';
import { LifecycleController } from './api/lifecycle.controller';
import { PolicyEventsHandler, PolicyUsageController } from './api/policy.controller';
import { RequestsController } from './api/requests.controller';
import { StatsController } from './api/stats.controller';
import { DEADLINE_MONITOR_SETTINGS, DeadlineMonitor, type DeadlineMonitorSettings } from './application/deadline-monitor';
import { PolicyCopy } from './application/policy-copy';
import { PolicyUpgrades } from './application/policy-upgrades';
import { RequestAppeals } from './application/request-appeals';
import { RequestClock } from './application/request-clock';
import { RequestLifecycle } from './application/request-lifecycle';
import { IDENTITY_INDEX_SETTINGS, type IdentityIndexSettings, RequestIdentities } from './application/request-identities';
import { RequestQueue } from './application/request-queue';
import { RequestRecordPurger } from './application/request-record-purger';
import { RequestRegistry } from './application/request-registry';
import { RequestStats } from './application/request-stats';
import { RequestSystemTasks } from './application/request-system-tasks';
import { RequestorReveals } from './application/requestor-reveals';
import { IdentityBlindIndex } from './domain/identity/blind-index';
import { TaskEventsHandler } from './events/task-events.handler';

@Module({
  // The policy-usage route comes before the requests controller, so `policy-usage` is never read as a request id.
  controllers: [PolicyUsageController, RequestsController, ClockController, LifecycleController, AppealsController, StatsController, PolicyEventsHandler, TaskEventsHandler],
  providers: [PolicyCopy, RequestRegistry, RequestQueue, RequestStats, RequestClock, RequestLifecycle, RequestAppeals, PolicyUpgrades, RequestSystemTasks, RequestIdentities, RequestorReveals],
  exports: [RequestRegistry, RequestClock, RequestLifecycle, RequestIdentities],
})
export class LifecycleClockModule {
  /** The module with its deadline monitor, its retention sweep (`request_record`) and its identity index, on the given settings. */
  static withMonitor(settings: DeadlineMonitorSettings, retention: RetentionSettings, identity: IdentityIndexSettings): DynamicModule {
    const parts = retentionParts([RequestRecordPurger], retention);
    return {
      module: LifecycleClockModule,
      controllers: parts.controllers,
      providers: [
        { provide: DEADLINE_MONITOR_SETTINGS, useValue: settings },
        { provide: IDENTITY_INDEX_SETTINGS, useValue: identity },
        // The keys' derived keys are made once, at start.
        { provide: IdentityBlindIndex, useFactory: () => new IdentityBlindIndex(identity.keys) },
        DeadlineMonitor,
        ...parts.providers,
      ],
      exports: [DeadlineMonitor],
    };
  }
}
