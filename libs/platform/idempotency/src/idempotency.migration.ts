import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The idempotency records of a service, in its own schema: a key is claimed
 * before the command runs and completed, with the response, in the command's
 * own transaction.
 */
export class IdempotencyKeys1763700000050 implements MigrationInterface {
  name = 'IdempotencyKeys1763700000050';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.idempotency_keys (
        tenant_id       text        NOT NULL,
        principal       text        NOT NULL,
        key             text        NOT NULL,
        fingerprint     text        NOT NULL,
        state           text        NOT NULL CHECK (state IN ('processing', 'completed')),
        locked_until    timestamptz NOT NULL,
        response_status integer,
        response_body   jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, principal, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expiry ON ${s}.idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.idempotency_keys`);
  }
}

export const idempotencyMigrations = [IdempotencyKeys1763700000050];
