import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newestReleases, type PackActivation, type PackSetChangedV1, PolicyEventTypes, tenantSubject } from '@dsar/contracts';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';

/** A tenant's pack set: the built-in release it is on for each pack, and its custom pack activations. */
export interface PackSet {
  readonly tenantId: string;
  /** 0 until the first change: the tenant then follows the newest built-in releases. */
  readonly revision: number;
  readonly builtInPins: Readonly<Record<string, string>>;
  readonly activations: readonly PackActivation[];
}

type ActivationRow = { workspace_id: string; jurisdiction: string; name: string; version: string };

/**
 * The tenants' pack sets. Every change of a tenant's set locks its row first,
 * so changes take turns and each gets the next revision; the whole set is then
 * published (`dsar.policy.pack_set_changed.v1`) in the same transaction, and
 * lifecycle-clock pins new requests from its copy.
 *
 * A tenant's set is pinned the first time it changes: every built-in pack is
 * pinned to its newest release then, and from then on a later release reaches
 * the tenant only through an upgrade proposal. Until then it follows the
 * newest releases.
 */
@Injectable()
export class PackSets {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  /** The set as stored, outside any change. */
  read(tenantId: string, manager: EntityManager = this.uow.dataSource.manager): Promise<PackSet> {
    return this.load(manager, tenantId, false);
  }

  /** The set, locked until the caller's transaction ends. */
  async lock(tx: EntityManager, tenantId: string): Promise<PackSet> {
    await tx.query(`INSERT INTO ${this.table('tenant_pack_sets')} (tenant_id, revision, built_in_pins, updated_at) VALUES ($1, 0, '{}', now()) ON CONFLICT DO NOTHING`, [tenantId]);
    return this.load(tx, tenantId, true);
  }

  /** Stores a changed set (on a row `lock` holds) and publishes it whole. */
  async commit(tx: EntityManager, previous: PackSet, next: { builtInPins?: Record<string, string>; activations?: readonly PackActivation[] }, now: Date, actor: string): Promise<PackSet> {
    const pins = { ...pinnedAtFirstChange(previous), ...(next.builtInPins ?? {}) };
    const activations = next.activations ?? previous.activations;
    const revision = previous.revision + 1;
    await tx.query(`UPDATE ${this.table('tenant_pack_sets')} SET revision = $2, built_in_pins = $3::jsonb, updated_at = $4 WHERE tenant_id = $1`, [
      previous.tenantId,
      revision,
      JSON.stringify(pins),
      now,
    ]);
    if (next.activations) await this.storeActivations(tx, previous.tenantId, activations, now, actor);
    const set: PackSet = { tenantId: previous.tenantId, revision, builtInPins: pins, activations };
    const data: PackSetChangedV1 = { tenantId: set.tenantId, revision, builtInPins: pins, activations: [...activations], occurredAt: now.toISOString() };
    await this.outbox.record(tx, { type: PolicyEventTypes.packSetChanged, subject: tenantSubject(set.tenantId), tenantId: set.tenantId, data });
    return set;
  }

  /** Replaces the stored activations; one that did not change keeps when and by whom it was activated. */
  private async storeActivations(tx: EntityManager, tenantId: string, activations: readonly PackActivation[], now: Date, actor: string): Promise<void> {
    const table = this.table('custom_pack_activations');
    const keys = activations.map((a) => `${a.workspaceId ?? ''}|${a.jurisdiction}`);
    await tx.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND NOT (workspace_id || '|' || jurisdiction = ANY($2::text[]))`, [tenantId, keys]);
    for (const a of activations) {
      await tx.query(
        `INSERT INTO ${table} AS t (tenant_id, workspace_id, jurisdiction, name, version, activated_at, activated_by) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, workspace_id, jurisdiction) DO UPDATE SET name = $4, version = $5, activated_at = $6, activated_by = $7
         WHERE t.name <> $4 OR t.version <> $5`,
        [tenantId, a.workspaceId ?? '', a.jurisdiction, a.name, a.version, now, actor],
      );
    }
  }

  private async load(manager: EntityManager, tenantId: string, lock: boolean): Promise<PackSet> {
    const [row]: Array<{ revision: number; built_in_pins: Record<string, string> }> = await manager.query(
      `SELECT revision, built_in_pins FROM ${this.table('tenant_pack_sets')} WHERE tenant_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [tenantId],
    );
    const activations: ActivationRow[] = await manager.query(
      `SELECT workspace_id, jurisdiction, name, version FROM ${this.table('custom_pack_activations')} WHERE tenant_id = $1 ORDER BY workspace_id, jurisdiction`,
      [tenantId],
    );
    return {
      tenantId,
      revision: row?.revision ?? 0,
      builtInPins: row?.built_in_pins ?? {},
      activations: activations.map((a) => ({ workspaceId: a.workspace_id === '' ? null : a.workspace_id, jurisdiction: a.jurisdiction, name: a.name, version: a.version })),
    };
  }

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }
}

/** The built-in release a tenant is on for a pack: its pin, or the newest release while its set has never changed. */
export function builtInReleaseOf(set: PackSet, packId: string): string | undefined {
  return set.builtInPins[packId] ?? newestReleases().find((p) => p.packId === packId)?.version;
}

/** The pins a set starts from: at its first change, every built-in pack at its newest release. */
function pinnedAtFirstChange(set: PackSet): Record<string, string> {
  if (set.revision > 0) return { ...set.builtInPins };
  return Object.fromEntries(newestReleases().map((p) => [p.packId, set.builtInPins[p.packId] ?? p.version]));
}
