import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DataSystemAction, type DataSystemPut, type DataSystemView, type Principal, SYSTEM_KEY_PATTERN } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { UnitOfWork } from '@dsar/platform/persistence';
import { BlobNotFoundError, FileStorage, StorageError } from '@dsar/platform/storage';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../data-system-settings';
import { definitionOf, definitionProblems, dependantsOf, type LiveSystems, viewOf } from '../domain/data-system-rules';
import { DataSystemEntity, DataSystemHistoryEntity } from '../infrastructure/data-system.entity';

/** A system as the tasks read it: its view, and when it was deleted (null while it is live). */
export type DataSystem = DataSystemView & { deletedAt: string | null };

/** What a PUT did: `created` (201) when the key had no live system, else replaced or left as it was (200). */
export interface DataSystemPutResult {
  created: boolean;
  system: DataSystemView;
}

/** The largest webhook secret read back from storage (the contract allows about 100 characters). */
const MAX_SECRET_BYTES = 1024;
/** Tries of a PUT whose reused secret file was replaced by a concurrent PUT between its read and its transaction. */
const PUT_ATTEMPTS = 3;

/** A concurrent PUT replaced the secret file this one meant to keep: the PUT starts again. */
class SecretMoved extends Error {}

/**
 * The tenants' data systems (docs/data-systems.md#the-registry). Changes of one tenant's registry take turns on a
 * transaction-scoped advisory lock of the tenant, so that the checks that span systems (every `after` names a live
 * system, no cycle, no delete of a system another comes after) hold whatever runs at the same time, and two PUTs
 * of a new key make one row (one 201, one 200). A webhook secret is kept encrypted at rest in the service's
 * FileStorage (the tenant's data key, wrapped by the storage master key), never in the row or a log.
 */
@Injectable()
export class DataSystems {
  private readonly log = new Logger(DataSystems.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly storage: FileStorage,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {}

  /** The tenant's live systems, sorted by key. */
  async list(tenantId: string): Promise<DataSystemView[]> {
    const rows = await this.uow.manager
      .getRepository(DataSystemEntity)
      .createQueryBuilder('s')
      .where('s.tenant_id = :tenantId AND s.deleted_at IS NULL', { tenantId })
      .orderBy('s.key', 'ASC')
      .getMany();
    return rows.map(viewOf);
  }

  /** One live system: 404 DATA_SYSTEM_NOT_FOUND for an unknown or deleted key (or another tenant's). */
  async view(tenantId: string, key: string): Promise<DataSystemView> {
    const system = await this.get(tenantId, key);
    if (!system) throw notFound(key);
    const { deletedAt: _deletedAt, ...view } = system;
    return view;
  }

  /** One system, or null; a deleted one only with `includeDeleted` (its last definition). In `tx` when given, else in the caller's unit of work. */
  async get(tenantId: string, key: string, options: { includeDeleted?: boolean; tx?: EntityManager } = {}): Promise<DataSystem | null> {
    if (!SYSTEM_KEY_PATTERN.test(key)) return null;
    const row = await (options.tx ?? this.uow.manager).findOne(DataSystemEntity, { where: { tenantId, key } });
    if (!row || (row.deletedAt !== null && !options.includeDeleted)) return null;
    return { ...viewOf(row), deletedAt: row.deletedAt?.toISOString() ?? null };
  }

  /** The tenant's live systems that take `action` (paused ones included: their tasks wait), sorted by key. */
  async activeFor(tenantId: string, action: DataSystemAction, tx?: EntityManager): Promise<DataSystemView[]> {
    const rows = await (tx ?? this.uow.manager)
      .getRepository(DataSystemEntity)
      .createQueryBuilder('s')
      .where(`s.tenant_id = :tenantId AND s.deleted_at IS NULL AND (s.definition -> 'actions') @> jsonb_build_array(CAST(:action AS text))`, { tenantId, action })
      .orderBy('s.key', 'ASC')
      .getMany();
    return rows.map(viewOf);
  }

  /** Every change of a system (created, replaced, deleted), oldest first, with its definition after the change and who made it. */
  async history(tenantId: string, key: string): Promise<{ version: number; change: DataSystemHistoryEntity['change']; definition: DataSystemHistoryEntity['definition']; at: string; by: string }[]> {
    const rows = await this.uow.manager.find(DataSystemHistoryEntity, { where: { tenantId, key }, order: { seq: 'ASC' } });
    return rows.map((r) => ({ version: r.version, change: r.change, definition: r.definition, at: r.at.toISOString(), by: r.by }));
  }

  /**
   * The signing secret of a live webhook system, in clear, for the webhook sender only (never returned by the API nor
   * logged). Null when the system is not a live webhook system; rejects with a StorageError when storage cannot read it.
   */
  async webhookSecret(tenantId: string, key: string): Promise<string | null> {
    const row = await this.uow.manager.findOne(DataSystemEntity, { where: { tenantId, key } });
    if (!row || row.deletedAt !== null || row.webhookSecretObject === null) return null;
    return this.readSecret(tenantId, row.webhookSecretObject);
  }

  /**
   * Registers (201) or replaces (200, version + 1) the system `key`: 422 DATA_SYSTEM_INVALID when the definition does
   * not hold together with the tenant's other systems (nothing stored). The same definition and secret again change
   * nothing (200, same version): a PUT can be repeated safely. A key deleted before is registered again (201), its
   * version going on from the deleted one's.
   */
  async put(principal: Principal, tenantId: string, key: string, body: DataSystemPut): Promise<DataSystemPutResult> {
    if (!SYSTEM_KEY_PATTERN.test(key)) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', 'The system key in the path is not valid.', [
        { field: 'systemKey', message: 'must be 1–63 lower-case letters, digits, _ or -, starting with a letter or digit' },
      ]);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.putOnce(principal, tenantId, key, body);
      } catch (e) {
        if (!(e instanceof SecretMoved) || attempt >= PUT_ATTEMPTS) throw e instanceof SecretMoved ? new Error('The webhook secret kept changing under concurrent PUTs') : e;
      }
    }
  }

  private async putOnce(principal: Principal, tenantId: string, key: string, body: DataSystemPut): Promise<DataSystemPutResult> {
    const definition = definitionOf(body);
    // The secret is written before the transaction (storage is no part of it): the stored one is kept when it is the same.
    const secret = body.mode === 'webhook' ? body.webhook?.secret : undefined;
    let kept: string | null = null;
    let written: string | null = null;
    if (secret !== undefined) {
      const before = await this.uow.manager.findOne(DataSystemEntity, { where: { tenantId, key } });
      if (before?.deletedAt === null && before.webhookSecretObject !== null && (await this.sameSecret(tenantId, before.webhookSecretObject, secret))) {
        kept = before.webhookSecretObject;
      } else {
        written = await this.writeSecret(tenantId, key, secret);
      }
    }
    try {
      // What the transaction did, and the secret file it stopped naming (removed once it committed).
      const { result, replaced } = await this.uow.run(async (tx): Promise<{ result: DataSystemPutResult; replaced: string | null }> => {
        await lockTenant(tx, tenantId);
        const current = await tx.findOne(DataSystemEntity, { where: { tenantId, key } });
        const live = current !== null && current.deletedAt === null;
        if (kept !== null && current?.webhookSecretObject !== kept) throw new SecretMoved();
        const problems = definitionProblems(key, body, await liveSystems(tx, tenantId, key), { allowHttp: this.settings.webhookAllowHttp });
        if (problems.length > 0) {
          throw new ProblemError('DATA_SYSTEM_INVALID', `The definition of data system ${key} does not hold together with the tenant's systems: nothing was stored.`, problems);
        }
        const secretObject = kept ?? written;
        if (live && isDeepStrictEqual(current.definition, definition) && current.webhookSecretObject === secretObject) {
          return { result: { created: false, system: viewOf(current) }, replaced: null };
        }
        const now = this.clock.now();
        const row: DataSystemEntity = {
          tenantId,
          key,
          version: (current?.version ?? 0) + 1,
          definition,
          webhookSecretObject: secretObject,
          deletedAt: null,
          createdAt: live ? current.createdAt : now,
          updatedAt: now,
          updatedBy: principal.id,
        };
        if (current) await tx.update(DataSystemEntity, { tenantId, key }, row);
        else await tx.insert(DataSystemEntity, row);
        await tx.insert(DataSystemHistoryEntity, { tenantId, key, version: row.version, change: live ? 'replaced' : 'created', definition, at: now, by: principal.id });
        const previous = current?.webhookSecretObject ?? null;
        return { result: { created: !live, system: viewOf(row) }, replaced: previous !== secretObject ? previous : null };
      });
      if (replaced !== null) await this.dropSecret(tenantId, replaced);
      return result;
    } catch (e) {
      if (written !== null) await this.dropSecret(tenantId, written);
      throw e;
    }
  }

  /**
   * Deletes a live system (soft: the row stays, with `deleted_at`, for the tasks it already has): 404 when there is
   * none, 409 DATA_SYSTEM_IN_USE while another live system comes after it (`dependants`). Its webhook secret is dropped.
   */
  async delete(principal: Principal, tenantId: string, key: string): Promise<void> {
    const dropped = await this.uow.run(async (tx) => {
      await lockTenant(tx, tenantId);
      const current = SYSTEM_KEY_PATTERN.test(key) ? await tx.findOne(DataSystemEntity, { where: { tenantId, key } }) : null;
      if (!current || current.deletedAt !== null) throw notFound(key);
      const dependants = dependantsOf(key, await liveSystems(tx, tenantId, key));
      if (dependants.length > 0) {
        throw new ProblemError('DATA_SYSTEM_IN_USE', `Data system ${key} cannot be deleted: ${dependants.length} other system(s) come after it. Change them first.`, undefined, {
          dependants,
        });
      }
      const now = this.clock.now();
      await tx.update(DataSystemEntity, { tenantId, key }, { deletedAt: now, updatedAt: now, updatedBy: principal.id, webhookSecretObject: null });
      await tx.insert(DataSystemHistoryEntity, { tenantId, key, version: current.version, change: 'deleted', definition: current.definition, at: now, by: principal.id });
      return current.webhookSecretObject;
    });
    if (dropped !== null) await this.dropSecret(tenantId, dropped);
  }

  private async writeSecret(tenantId: string, key: string, secret: string): Promise<string> {
    const objectKey = `data-systems/${key}/${randomUUID()}.secret`;
    try {
      await this.storage.put(tenantId, objectKey, Readable.from([Buffer.from(secret, 'utf8')]), { maxBytes: MAX_SECRET_BYTES });
    } catch (e) {
      throw storageProblem(e);
    }
    return objectKey;
  }

  private async readSecret(tenantId: string, objectKey: string): Promise<string> {
    const { stream } = await this.storage.get(tenantId, objectKey);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_SECRET_BYTES) {
        stream.destroy();
        throw new Error(`The webhook secret file of ${objectKey.slice(0, 100)} is larger than a secret`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Whether the stored secret is `secret` (compared in constant time); a secret storage cannot read counts as another one. */
  private async sameSecret(tenantId: string, objectKey: string, secret: string): Promise<boolean> {
    try {
      const stored = Buffer.from(await this.readSecret(tenantId, objectKey), 'utf8');
      const given = Buffer.from(secret, 'utf8');
      return stored.length === given.length && timingSafeEqual(stored, given);
    } catch (e) {
      if (e instanceof BlobNotFoundError) return false;
      throw storageProblem(e);
    }
  }

  /** Removes a secret file no row names any more; a failure leaves an unreadable-without-the-key file behind, logged. */
  private async dropSecret(tenantId: string, objectKey: string): Promise<void> {
    try {
      await this.storage.delete(tenantId, objectKey);
    } catch (e) {
      this.log.warn(`Could not remove a replaced webhook secret file (${objectKey.slice(0, 120)}): ${(e as Error).name}`);
    }
  }
}

/** The tenant's registry changes take turns: a transaction-scoped advisory lock on the tenant (released at commit or rollback). */
async function lockTenant(tx: EntityManager, tenantId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`data_system:${tenantId}`]);
}

/** The tenant's live systems other than `key`, with whom each comes after. */
async function liveSystems(tx: EntityManager, tenantId: string, key: string): Promise<LiveSystems> {
  const rows = await tx
    .getRepository(DataSystemEntity)
    .createQueryBuilder('s')
    .select(['s.key', 's.definition'])
    .where('s.tenant_id = :tenantId AND s.deleted_at IS NULL AND s.key <> :key', { tenantId, key })
    .getMany();
  return new Map(rows.map((r) => [r.key, r.definition.after]));
}

function notFound(key: string): ProblemError {
  return new ProblemError('DATA_SYSTEM_NOT_FOUND', `The tenant has no data system ${key.slice(0, 64)}.`);
}

/** Storage that is not configured or failed: a 503 the caller may retry (nothing was stored). */
function storageProblem(e: unknown): unknown {
  if (e instanceof ProblemError || !(e instanceof StorageError)) return e;
  return new ProblemError('SERVICE_UNAVAILABLE', 'Storage for webhook secrets is not available right now: nothing was stored.', undefined, {}, { 'Retry-After': '5' });
}
