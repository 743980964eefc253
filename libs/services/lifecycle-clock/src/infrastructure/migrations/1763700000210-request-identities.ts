import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The blind index of the identities a request carries (docs/identity.md): per identity its kind, the key it was
 * written under (`key_id`), the normalisation rules' version, and `digest`, an HMAC-SHA256 under a key derived for the
 * kind, of the tenant and the normalised value. No identity is kept here in clear. Searches and the duplicate check
 * look a digest up within a tenant (`request_identities_lookup`, covering the request id); a request's rows are
 * rewritten under its key by the primary key's prefix. Beside the request, its duplicate mark: the request it repeats,
 * where the decision stands, when it was marked and the kinds that matched; the queue's `duplicate` filter reads the
 * marked and confirmed ones of a tenant in its default order from a partial index.
 */
export class RequestIdentities1763700000210 implements MigrationInterface {
  name = 'RequestIdentities1763700000210';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.request_identities (
        request_id uuid NOT NULL,
        tenant_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('email', 'phone', 'account')),
        key_id text NOT NULL,
        rules_version smallint NOT NULL,
        digest bytea NOT NULL CHECK (octet_length(digest) = 32),
        PRIMARY KEY (request_id, key_id, kind, digest)
      )`);
    await q.query(`CREATE INDEX request_identities_lookup ON ${s}.request_identities (tenant_id, digest) INCLUDE (request_id)`);
    await q.query(`
      ALTER TABLE ${s}.requests
        ADD COLUMN duplicate_of uuid,
        ADD COLUMN duplicate_state text CHECK (duplicate_state IN ('marked', 'confirmed', 'separated')),
        ADD COLUMN duplicate_marked_at timestamptz,
        ADD COLUMN duplicate_matched_kinds jsonb,
        ADD CONSTRAINT requests_duplicate_marked CHECK ((duplicate_state IS NULL) = (duplicate_of IS NULL) AND (duplicate_state IS NULL) = (duplicate_marked_at IS NULL))`);
    await q.query(`CREATE INDEX requests_queue_duplicate ON ${s}.requests (tenant_id, received_at DESC, id DESC) WHERE duplicate_state IN ('marked', 'confirmed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP INDEX ${s}.requests_queue_duplicate`);
    await q.query(`
      ALTER TABLE ${s}.requests
        DROP CONSTRAINT requests_duplicate_marked,
        DROP COLUMN duplicate_matched_kinds,
        DROP COLUMN duplicate_marked_at,
        DROP COLUMN duplicate_state,
        DROP COLUMN duplicate_of`);
    await q.query(`DROP TABLE ${s}.request_identities`);
  }
}
