import { Controller, Injectable, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { type CloudEvent, domainEventCatalog, type EventCatalog, Topics } from '@dsar/contracts';
import type { ServiceDefinition } from '@dsar/platform/host';
import { Outbox } from '@dsar/platform/messaging';
import { schemaOf, UnitOfWork } from '@dsar/platform/persistence';

/**
 * A small service for the messaging tests: it publishes numbered steps per
 * key through its outbox and consumes them, recording each effect. A step
 * with `fail: true` makes its handler throw every time.
 */
export const STEP_EVENT = 'dsar.test.step.v1';

export const stepSchema = z.object({ key: z.string(), seq: z.number().int(), fail: z.boolean() });
export type Step = z.infer<typeof stepSchema>;

export function stepCatalog(): EventCatalog {
  return domainEventCatalog().extend([{ type: STEP_EVENT, topic: Topics.request, schema: stepSchema, producer: 'step-service', description: 'test step' }]);
}

class StepEffects1763700009000 implements MigrationInterface {
  name = 'StepEffects1763700009000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ${schemaOf(q)}.step_effects (
      n bigserial PRIMARY KEY, key text NOT NULL, seq int NOT NULL, event_id uuid NOT NULL, tx bigint NOT NULL DEFAULT txid_current())`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.step_effects`);
  }
}

@Injectable()
export class StepLog {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** Commits one step event in its own transaction. */
  async emit(step: Step): Promise<string> {
    const envelope = await this.uow.run((tx) => this.outbox.record(tx, { type: STEP_EVENT, subject: step.key, tenantId: 'test', data: step }));
    return envelope.id;
  }

  /** Commits the steps' events together, in one transaction (the relay then publishes them together). */
  async emitAll(steps: Step[]): Promise<void> {
    await this.uow.run(async (tx) => {
      for (const step of steps) await this.outbox.record(tx, { type: STEP_EVENT, subject: step.key, tenantId: 'test', data: step });
    });
  }

  /** Each effect with the transaction that made it. */
  async effects(): Promise<{ key: string; seq: number; event_id: string; tx: string }[]> {
    return this.uow.dataSource.query(`SELECT key, seq, event_id, tx FROM step_service.step_effects ORDER BY n`);
  }
}

@Controller()
class StepHandler {
  constructor(private readonly uow: UnitOfWork) {}

  @EventPattern(STEP_EVENT)
  async onStep(@Payload() event: CloudEvent<Step>): Promise<void> {
    if (event.data.fail) throw new Error(`step ${event.data.key}/${event.data.seq} refuses to be handled`);
    await this.uow.run((tx) => tx.query(`INSERT INTO step_service.step_effects (key, seq, event_id) VALUES ($1, $2, $3)`, [event.data.key, event.data.seq, event.id]));
  }
}

@Module({ controllers: [StepHandler], providers: [StepLog] })
class StepModule {}

export const stepService: ServiceDefinition = {
  name: 'step-service',
  module: StepModule,
  persistence: true,
  migrations: [StepEffects1763700009000],
};
