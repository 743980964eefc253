import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The record of every inbound webhook delivery intake took (docs/webhooks.md#what-is-stored): one row per delivery,
 * unique by surface and the provider's delivery id, so a repeated delivery is answered with the first answer and
 * creates nothing. It holds ids, hashes and decisions, never the message's words or addresses; `thread_key` is the
 * SHA-256 of the message's thread identity (its Message-ID, or Slack team, channel and ts), for matching replies.
 */
export class InboundMessages1763700000700 implements MigrationInterface {
  name = 'InboundMessages1763700000700';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.inbound_messages (
        id              uuid        PRIMARY KEY,
        surface         text        NOT NULL CHECK (surface IN ('inbound_mail', 'inbound_chat')),
        delivery_id     text        NOT NULL,
        provider        text        NOT NULL,
        tenant_id       text        NOT NULL,
        workspace_id    text,
        jurisdiction    text        NOT NULL,
        source_id       text,
        content_sha256  text        NOT NULL,
        received_at     timestamptz NOT NULL,
        state           text        NOT NULL CHECK (state IN ('processing', 'completed')),
        locked_until    timestamptz NOT NULL,
        status          text,
        outcome         text,
        reason          text,
        request_id      uuid,
        thread_key      text,
        response_status integer,
        response_body   jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        completed_at    timestamptz,
        CONSTRAINT inbound_messages_delivery UNIQUE (surface, delivery_id)
      )`);
    await q.query(`CREATE INDEX inbound_messages_thread ON ${s}.inbound_messages (tenant_id, thread_key) WHERE thread_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.inbound_messages`);
  }
}
