import type { ServiceDefinition } from '@dsar/platform/host';
import { retentionMigrations, RetentionRuleEntity, type RetentionSettings, retentionSettingsFrom } from '@dsar/platform/retention';
import type { DeadlineMonitorSettings } from './application/deadline-monitor';
import { AppealEntity } from './infrastructure/appeal.entity';
import { ClockEventEntity } from './infrastructure/clock-event.entity';
import { DeadlineAlertEntity } from './infrastructure/deadline-alert.entity';
import { Requests1763700000100 } from './infrastructure/migrations/1763700000100-requests';
import { RequestIntake1763700000110 } from './infrastructure/migrations/1763700000110-request-intake';
import { RequestClock1763700000120 } from './infrastructure/migrations/1763700000120-request-clock';
import { RequestLifecycle1763700000130 } from './infrastructure/migrations/1763700000130-request-lifecycle';
import { RequestLocale1763700000140 } from './infrastructure/migrations/1763700000140-request-locale';
import { PolicyCopy1763700000150 } from './infrastructure/migrations/1763700000150-policy-copy';
import { RequestCounts1763700000160 } from './infrastructure/migrations/1763700000160-request-counts';
import { QueueOpenReceived1763700000170 } from './infrastructure/migrations/1763700000170-queue-open-received';
import { QueueFilters1763700000180 } from './infrastructure/migrations/1763700000180-queue-filters';
import { RequestCorrections1763700000190 } from './infrastructure/migrations/1763700000190-request-corrections';
import { RequestSystemTasks1763700000195 } from './infrastructure/migrations/1763700000195-request-system-tasks';
import { RequestTriage1763700000200 } from './infrastructure/migrations/1763700000200-request-triage';
import { RequestIdentities1763700000210 } from './infrastructure/migrations/1763700000210-request-identities';
import { RequestStats1763700000220 } from './infrastructure/migrations/1763700000220-request-stats';
import { RequestEntity } from './infrastructure/request.entity';
import { RequestTransitionEntity } from './infrastructure/request-transition.entity';
import { LifecycleClockModule } from './lifecycle-clock.module';
import type { IdentityIndexSettings } from './application/request-identities';
import { deadlineMonitorSettingsFrom, identityIndexSettingsFrom } from './lifecycle-settings';

export { LifecycleClockModule } from './lifecycle-clock.module';
export { RequestRegistry } from './application/request-registry';
export { RequestClock } from './application/request-clock';
export { RequestLifecycle } from './application/request-lifecycle';
export { DeadlineMonitor, type DeadlineMonitorSettings } from './application/deadline-monitor';
export { RequestEntity } from './infrastructure/request.entity';
export { deadlineMonitorSettingsFrom, identityIndexSettingsFrom, type LifecycleConfig, lifecycleFields } from './lifecycle-settings';
export { RequestIdentities, type IdentityIndexSettings } from './application/request-identities';
export { IdentityBlindIndex } from './domain/identity/blind-index';

/**
 * lifecycle-clock with its deadline monitor, retention sweep and identity index on the given settings (the app and the
 * embedded runner pass their configuration).
 */
export function lifecycleClockServiceWith(
  monitor: DeadlineMonitorSettings,
  retention: RetentionSettings = retentionSettingsFrom({}),
  identity: IdentityIndexSettings = identityIndexSettingsFrom({}),
): ServiceDefinition {
  return {
    name: 'lifecycle-clock',
    module: LifecycleClockModule.withMonitor(monitor, retention, identity),
    persistence: true,
    entities: [RequestEntity, ClockEventEntity, RequestTransitionEntity, AppealEntity, DeadlineAlertEntity, RetentionRuleEntity],
    migrations: [
      ...retentionMigrations,
      Requests1763700000100,
      RequestIntake1763700000110,
      RequestClock1763700000120,
      RequestLifecycle1763700000130,
      RequestLocale1763700000140,
      PolicyCopy1763700000150,
      RequestCounts1763700000160,
      QueueOpenReceived1763700000170,
      QueueFilters1763700000180,
      RequestCorrections1763700000190,
      RequestSystemTasks1763700000195,
      RequestTriage1763700000200,
      RequestIdentities1763700000210,
      RequestStats1763700000220,
    ],
  };
}

/** lifecycle-clock owns the request aggregate, its status changes and its legal clock. This definition's deadline monitor is off. */
export const lifecycleClockService: ServiceDefinition = lifecycleClockServiceWith(deadlineMonitorSettingsFrom({}));
