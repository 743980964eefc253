import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DEFAULT_DUPLICATE_WINDOW_DAYS, type DuplicateMarkedV1, type IdentityKind, OPEN_STATUSES, type RequestDetail } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { qualifiedTable, type SqlWrite, UnitOfWork } from '@dsar/platform/persistence';
import { IdentityBlindIndex } from '../domain/identity/blind-index';
import { identitiesOf } from '../domain/identity/identities-of';
import { IDENTITY_RULES_VERSION, normaliseIdentity } from '../domain/identity/identity-normalisation';
import { type NewRequestRow, RequestEntity } from '../infrastructure/request.entity';

/** The identity index's settings: the keys (the current one first) and the window of the duplicate check. */
export interface IdentityIndexSettings {
  /** IDENTITY_INDEX_KEY: the key texts, the current one first; older ones are searched until a reindex has moved every row. */
  keys: string[];
  /** IDENTITY_DUPLICATE_WINDOW_DAYS: how far apart two receipts may be for the later request to be marked; 0 marks none. */
  duplicateWindowDays: number;
}

export const IDENTITY_INDEX_SETTINGS = Symbol('IDENTITY_INDEX_SETTINGS');

const DAY_MS = 86_400_000;

/** What the step that marks a request writes on it and in its event. */
export type DuplicateMark = Omit<DuplicateMarkedV1, 'requestId' | 'tenantId' | 'workspaceId'>;

/** One identity of a request and its digest under the current key, in hex: one row of the index. */
export interface IndexEntry {
  kind: IdentityKind;
  hex: string;
}

/** A request with a shared identity, as the duplicate check weighs it. */
interface Candidate {
  id: string;
  primary: string;
  kinds: IdentityKind[];
}

/** A request a new one may be marked against: an open first request of a group, or an open match standing for its group. */
interface GroupOption {
  id: string;
  intake_received_at: Date;
  verified: boolean;
}

/**
 * The blind index of the identities requests carry (docs/identity.md), which lifecycle-clock owns: it writes a
 * request's rows when the request is recorded and when its identities change, turns a searched identity into the
 * digests to look up, marks a new request that repeats an open one of the same person, and counts how many requests
 * carry a request's identities. It never keeps an identity in clear; the request row keeps what the request must.
 */
@Injectable()
export class RequestIdentities {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly index: IdentityBlindIndex,
    @Inject(IDENTITY_INDEX_SETTINGS) private readonly settings: IdentityIndexSettings,
  ) {}

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }

  /** The days of the window the activity of an identity is counted in: the duplicate window, or its default when marking is off. */
  get activityWindowDays(): number {
    return this.settings.duplicateWindowDays || DEFAULT_DUPLICATE_WINDOW_DAYS;
  }

  /**
   * Writes the request's rows under the current key and rules, replacing every row it had (under any key), in the
   * caller's transaction. Returns the digests written, in hex.
   */
  async write(tx: EntityManager, row: NewRequestRow): Promise<IndexEntry[]> {
    const entries = this.entriesOf(row);
    await tx.query(`DELETE FROM ${this.table('request_identities')} WHERE request_id = $1`, [row.id]);
    for (const insert of this.insertOf(row, entries)) await tx.query(insert.sql, [...insert.params]);
    return entries;
  }

  /** The request's identities and their digests under the current key, in hex: the rows `insertOf` writes. */
  entriesOf(row: NewRequestRow): IndexEntry[] {
    return identitiesOf(row).map(({ kind, value }) => ({ kind, hex: this.index.digest(row.tenantId, kind, value).toString('hex') }));
  }

  /**
   * The INSERT of the request's rows (none when it carries no identity), to send in the caller's transaction: alone,
   * or deferred with the request's own row (a create's, which has no rows to replace).
   */
  insertOf(row: NewRequestRow, entries: readonly IndexEntry[]): SqlWrite[] {
    if (entries.length === 0) return [];
    return [
      {
        sql: `INSERT INTO ${this.table('request_identities')} (request_id, tenant_id, kind, key_id, rules_version, digest)
       SELECT $1, $2, e.kind, $3, $4, decode(e.hex, 'hex') FROM unnest($5::text[], $6::text[]) AS e(kind, hex)
       ON CONFLICT DO NOTHING`,
        params: [row.id, row.tenantId, this.index.currentKeyId, IDENTITY_RULES_VERSION, entries.map((e) => e.kind), entries.map((e) => e.hex)],
      },
    ];
  }

  /**
   * The digests to look a searched identity up by: one per configured key, so that requests indexed under a
   * key being rotated out are found until the reindex has moved them. A value that is not an identity of the kind is
   * a 422 IDENTITY_NOT_RECOGNISED naming `identity` (the query's schema cannot tell it: it depends on the kind and the
   * rules). `jurisdiction` gives a national phone number its country.
   */
  searchDigests(tenantId: string, kind: IdentityKind, value: string, jurisdiction?: string): Buffer[] {
    const normalised = normaliseIdentity(kind, value, jurisdiction);
    if (normalised === null) {
      throw new ProblemError('IDENTITY_NOT_RECOGNISED', `The identity is not ${kind === 'email' ? 'an email address' : kind === 'phone' ? 'a phone number' : 'an account id'}.`, [
        { field: 'identity', message: identityProblem(kind) },
      ]);
    }
    return this.index.digestsUnderEveryKey(tenantId, kind, normalised).map((d) => d.digest);
  }

  /**
   * Marks a request being recorded or corrected (`entries`, its index rows: written in `tx` already, or deferred with
   * a new request's row; the check leaves the request's own rows out) as a duplicate of an open
   * request of the same tenant and workspace, type and jurisdiction that shares an identity, received within the
   * window; null when none (or the request has no type or no identity, or marking is off). The request it is marked
   * against is the first of the group the match belongs to, or the match itself when that first one is no longer
   * open. Two requests of one person recorded at once end in one group: the check holds a transaction lock on each of
   * the request's digests, so the later of two waits for the earlier to commit and then sees it.
   */
  async markIfDuplicate(tx: EntityManager, row: NewRequestRow, entries: readonly IndexEntry[], now: Date): Promise<DuplicateMark | null> {
    const windowDays = this.settings.duplicateWindowDays;
    if (windowDays === 0 || row.requestType === null || entries.length === 0) return null;
    // In one order in every transaction, so that two requests sharing several identities cannot deadlock: one
    // statement takes them all, in the order of the sorted array (unnest gives its elements in order). The reads below
    // are statements of their own, so that their snapshot is taken once the locks are held.
    const locks = [...new Set(entries.map((e) => e.hex))].sort().map((hex) => `identity:${row.tenantId}:${hex}`);
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k`, [locks]);
    const window = windowDays * DAY_MS;
    const receipt = row.intakeReceivedAt.getTime();
    const digests = this.everyKeyDigests(row);
    const candidates: Candidate[] = (
      await tx.query(
        `WITH ${this.sharingIdentity('$1', '$2', '$4')}
         SELECT r.id, CASE WHEN r.duplicate_state IN ('marked', 'confirmed') THEN r.duplicate_of ELSE r.id END AS primary, array_agg(DISTINCT i.kind) AS kinds
           FROM sharing i JOIN ${this.table('requests')} r ON r.id = i.request_id
          WHERE r.tenant_id = $1 AND r.workspace_id IS NOT DISTINCT FROM $3::text AND r.status = ANY($5)
            AND r.request_type = $6 AND r.jurisdiction = $7 AND r.intake_received_at BETWEEN $8 AND $9
          GROUP BY r.id`,
        [row.tenantId, digests, row.workspaceId, row.id, [...OPEN_STATUSES], row.requestType, row.jurisdiction, new Date(receipt - window), new Date(receipt + window)],
      )
    ).map((c: { id: string; primary: string; kinds: IdentityKind[] | string }) => ({ ...c, kinds: arrayOf(c.kinds) }));
    if (candidates.length === 0) return null;
    // The groups' first requests (a campaign from one identity has one), and only for a group whose first one was
    // decided, its open matches.
    let options = await this.optionsAmong(tx, row.tenantId, [...new Set(candidates.map((c) => c.primary))]);
    const firstsOpen = new Set(options.map((o) => o.id));
    const standingIn = candidates.filter((c) => !firstsOpen.has(c.primary)).map((c) => c.id);
    if (standingIn.length > 0) options = [...options, ...(await this.optionsAmong(tx, row.tenantId, standingIn))];
    // The first of each match's group while it is open; a match whose first one was decided stands for its group.
    const standsFor = (c: Candidate) => (firstsOpen.has(c.primary) ? c.primary : c.id);
    const eligible = new Set(candidates.map(standsFor));
    const chosen = options.filter((o) => eligible.has(o.id)).sort(byPreference)[0];
    if (!chosen) return null;
    const kinds = new Set(candidates.filter((c) => standsFor(c) === chosen.id).flatMap((c) => c.kinds));
    return {
      duplicateOf: chosen.id,
      matchedKinds: [...kinds].sort(),
      windowDays,
      sameIdentityRequests: await this.sameIdentityRequests(tx, row, windowDays, digests),
      markedAt: now.toISOString(),
    };
  }

  /** Those of the requests that are open, with what the choice of a group's first request weighs. */
  private optionsAmong(tx: EntityManager, tenantId: string, ids: string[]): Promise<GroupOption[]> {
    return tx.query(
      `SELECT r.id, r.intake_received_at,
              EXISTS (SELECT 1 FROM ${this.table('request_transitions')} t WHERE t.request_id = r.id AND t.action = 'approve_verification') AS verified
         FROM ${this.table('requests')} r WHERE r.id = ANY($1::uuid[]) AND r.tenant_id = $2 AND r.status = ANY($3)`,
      [ids, tenantId, [...OPEN_STATUSES]],
    );
  }

  /** How many requests carry the request's identities, as the detail shows it. */
  async activityOf(manager: EntityManager, row: RequestEntity): Promise<RequestDetail['identityActivity']> {
    const windowDays = this.activityWindowDays;
    return { requests: await this.sameIdentityRequests(manager, row, windowDays), windowDays };
  }

  /**
   * The requests of the tenant and workspace (this one included) that carry any of the request's identities, under
   * any configured key, received in the `windowDays` up to its receipt: a campaign from one identity shows as a high
   * count. A request without identities counts itself alone.
   */
  private async sameIdentityRequests(manager: EntityManager, row: NewRequestRow, windowDays: number, digests = this.everyKeyDigests(row)): Promise<number> {
    if (digests.length === 0) return 1;
    const [counted]: Array<{ n: string }> = await manager.query(
      `WITH ${this.sharingIdentity('$1', '$2', '$3')}
       SELECT count(DISTINCT i.request_id) AS n
         FROM sharing i JOIN ${this.table('requests')} r ON r.id = i.request_id
        WHERE r.tenant_id = $1 AND r.workspace_id IS NOT DISTINCT FROM $4::text AND r.intake_received_at BETWEEN $5 AND $6`,
      [row.tenantId, digests, row.id, row.workspaceId, new Date(row.intakeReceivedAt.getTime() - windowDays * DAY_MS), row.intakeReceivedAt],
    );
    return Number(counted.n) + 1;
  }

  /**
   * The CTE `sharing`: the index rows (request_id, kind) of the tenant's other requests under any of the digests
   * (`byteaDigests`, a bytea[] parameter of Buffers, which pg and PGlite both take), read through the lookup index on (tenant_id, digest) before
   * any join. The digests are a parameter the planner can put in the index condition: computed in the statement (an
   * ARRAY(SELECT decode(…)) sub-plan), they were a filter on every row of the tenant whenever the table's statistics
   * lagged its growth (a new installation, a busy hour), and every create read every recent request. MATERIALIZED
   * keeps the join from being driven from the tenant's requests instead.
   */
  private sharingIdentity(tenant: string, byteaDigests: string, except: string): string {
    return `sharing AS MATERIALIZED (
      SELECT request_id, kind FROM ${this.table('request_identities')}
       WHERE tenant_id = ${tenant} AND digest = ANY(${byteaDigests}::bytea[]) AND request_id <> ${except})`;
  }

  /** The request's identities' digests under every configured key: the rows of other requests may be under any. */
  private everyKeyDigests(row: NewRequestRow): Buffer[] {
    return identitiesOf(row).flatMap(({ kind, value }) => this.index.digestsUnderEveryKey(row.tenantId, kind, value).map((d) => d.digest));
  }

  /**
   * One batch of the reindex (`npm run identity:reindex`): the requests after `after` in id order, each of whose rows
   * are not all under the current key and rules is written again (its other rows deleted), in one transaction.
   * Returns the last id seen (null when there were none) and how many requests were rewritten.
   */
  async reindexBatch(after: string | null, size: number): Promise<{ last: string | null; seen: number; rewritten: number }> {
    return this.uow.run(async (tx) => {
      const rows = await tx
        .createQueryBuilder(RequestEntity, 'r')
        .where(after === null ? '1 = 1' : 'r.id > :after', { after })
        .orderBy('r.id', 'ASC')
        .limit(size)
        .setLock('pessimistic_write')
        .getMany();
      if (rows.length === 0) return { last: null, seen: 0, rewritten: 0 };
      const indexed: Array<{ request_id: string; n: string; stale: string }> = await tx.query(
        `SELECT request_id, count(*) AS n, count(*) FILTER (WHERE key_id <> $2 OR rules_version <> $3) AS stale
           FROM ${this.table('request_identities')} WHERE request_id = ANY($1::uuid[]) GROUP BY request_id`,
        [rows.map((r) => r.id), this.index.currentKeyId, IDENTITY_RULES_VERSION],
      );
      const byRequest = new Map(indexed.map((i) => [i.request_id, { rows: Number(i.n), stale: Number(i.stale) }]));
      let rewritten = 0;
      for (const row of rows) {
        const current = byRequest.get(row.id) ?? { rows: 0, stale: 0 };
        // Rows under an older key or rules, or none for a request that carries identities (recorded before the index).
        const due = current.stale > 0 || (current.rows === 0 && identitiesOf(row).length > 0);
        if (!due) continue;
        await this.write(tx, row);
        rewritten++;
      }
      return { last: rows[rows.length - 1].id, seen: rows.length, rewritten };
    });
  }

  /** Deletes index rows whose request no longer exists (none should: a purge deletes both); returns how many. */
  async dropOrphans(): Promise<number> {
    const rows: unknown[] = await this.uow.dataSource.query(
      `WITH dropped AS (
         DELETE FROM ${this.table('request_identities')} i WHERE NOT EXISTS (SELECT 1 FROM ${this.table('requests')} r WHERE r.id = i.request_id) RETURNING 1)
       SELECT 1 FROM dropped`,
    );
    return rows.length;
  }

  /** Whether any row is under a key other than the current one, or under older rules: a reindex has work to do. */
  async staleRows(): Promise<number> {
    const [{ n }]: Array<{ n: string }> = await this.uow.dataSource.query(`SELECT count(*) AS n FROM ${this.table('request_identities')} WHERE key_id <> $1 OR rules_version <> $2`, [
      this.index.currentKeyId,
      IDENTITY_RULES_VERSION,
    ]);
    return Number(n);
  }
}

/** Verified requests first, then the earliest received, then the smallest id: one primary for any order of arrival. */
function byPreference(a: GroupOption, b: GroupOption): number {
  if (a.verified !== b.verified) return a.verified ? -1 : 1;
  const at = new Date(a.intake_received_at).getTime() - new Date(b.intake_received_at).getTime();
  if (at !== 0) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A text[] as the driver returns it: an array (pg), or its literal (`{email,phone}`) where the type is not parsed. */
function arrayOf(value: IdentityKind[] | string): IdentityKind[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean) as IdentityKind[];
}

function identityProblem(kind: IdentityKind): string {
  switch (kind) {
    case 'email':
      return 'must be an email address (one @, a domain with a dot, no spaces); an email is matched in any case';
    case 'phone':
      return "must be a phone number in international form (+ and the country code), or in the national form of the `jurisdiction` filter's country";
    default:
      return 'must be an account id of 1 to 512 characters';
  }
}
