import type { Type, DynamicModule } from '@nestjs/common';

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
}
/* eslint-enable @typescript-eslint/no-unsafe-function-type */
