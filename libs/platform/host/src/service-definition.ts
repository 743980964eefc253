import type { ServiceName } from '@dsar/platform/config';
import { idempotencyMigrations } from '@dsar/platform/idempotency';
import { messagingMigrations } from '@dsar/platform/messaging';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- TypeORM lists entities and migrations as classes */
/** What a service library exports so that an app shell (or the embedded runner) can host it. */
export interface ServiceDefinition {
  /** e.g. `lifecycle-clock`; also the log name, the metrics label and (with `_`) the schema. */
  name: string;
  module: Type<unknown> | DynamicModule;
  /** False for the api-gateway, which holds no domain state. */
  persistence: boolean;
  entities?: Function[];
  migrations?: Function[];
  /** The services this one calls over internal HTTP; the host must be given their URLs. */
  calls?: readonly ServiceName[];
  /**
   * The public edge (the api-gateway): it authenticates callers itself, so
   * client-sent identity headers are ignored rather than checked. Every other
   * service refuses identity headers without a valid signature.
   */
  edge?: boolean;
  /** The service reads request bodies itself (the gateway authenticates before it reads a byte). */
  readsOwnBodies?: boolean;
  /**
   * The service takes file uploads of any length: Node's total request
   * deadline (300 s) is lifted, so that a large file on a slow link is not
   * cut off; the streams' own idle timeouts bound a stalled upload instead.
   */
  takesUploads?: boolean;
  /** Last touches to the app before it listens (the gateway mounts its API docs page). */
  configure?: (app: INestApplication) => void;
}
/* eslint-enable @typescript-eslint/no-unsafe-function-type */

/** Every migration of a service's schema, in order: the platform's tables (outbox, inbox, idempotency keys), then its own. */
export function serviceMigrations(definition: ServiceDefinition): ServiceDefinition['migrations'] & object {
  return [...messagingMigrations, ...idempotencyMigrations, ...(definition.migrations ?? [])];
}
