import { DataSystemsController } from './api/data-systems.controller';
import { DataSystems } from './application/data-systems';
import { DataSystemEntity, DataSystemHistoryEntity } from './infrastructure/data-system.entity';
import { DataSystems1763700000440 } from './infrastructure/migrations/1763700000440-data-systems';

export { type DataSystem, type DataSystemPutResult, DataSystems } from './application/data-systems';
export { cycleThrough, definitionOf, definitionProblems, dependantsOf, viewOf as dataSystemViewOf } from './domain/data-system-rules';
export { type DataSystemDefinition, DataSystemEntity, DataSystemHistoryEntity } from './infrastructure/data-system.entity';
export {
  DATA_SYSTEM_DEFAULTS,
  DATA_SYSTEM_SETTINGS,
  type DataSystemConfig,
  dataSystemFields,
  type DataSystemSettings,
  dataSystemSettingsFrom,
  dataSystemSettingsProvider,
} from './data-system-settings';

/**
 * The data-system registry (docs/data-systems.md#the-registry): controllers, providers, entities and migrations.
 * The module provides DATA_SYSTEM_SETTINGS (dataSystemSettingsProvider) and FileStorage (the storage module), which
 * keeps the webhook secrets.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DATA_SYSTEM_CONTROLLERS: Function[] = [DataSystemsController];
export const DATA_SYSTEM_PROVIDERS: unknown[] = [DataSystems];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DATA_SYSTEM_ENTITIES: Function[] = [DataSystemEntity, DataSystemHistoryEntity];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DATA_SYSTEM_MIGRATIONS: Function[] = [DataSystems1763700000440];
