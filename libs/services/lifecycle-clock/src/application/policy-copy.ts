import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  bindingIn,
  builtInVersionsOf,
  compareVersions,
  type CustomPackRegisteredV1,
  type JurisdictionBinding,
  type PackActivation,
  type PackSetChangedV1,
  type PolicyPack,
  policyPackVersion,
  type ResolvedJurisdiction,
  versionInForce,
} from '@dsar/contracts';
import { localDateOf } from '@dsar/platform/deadline';
import { ProblemError } from '@dsar/platform/errors';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';

/** The pack version a new request pins, its calendar, and why. */
export interface PinnedPack {
  readonly pack: PolicyPack;
  readonly binding: JurisdictionBinding;
  readonly basis: string;
}

/** What a request row says it pinned. */
export type PinnedRow = { readonly id: string; readonly tenantId: string; readonly jurisdiction: string; readonly policyPack: string; readonly policyVersion: string };

const PACK_SET_CACHE_MS = 1000;
const MAX_CACHED_PACK_SETS = 10_000;

type PackSetRow = { revision: number; built_in_pins: Record<string, string>; activations: PackActivation[] };

/**
 * lifecycle-clock's copy of policy administration (ADR 0028): each tenant's
 * pack set and the custom pack documents, kept from policy-registry's
 * `dsar.policy.v1` events. Intake pins from it, so new requests keep coming in
 * with the last known activations while policy-registry is down. Custom pack
 * documents never change once registered, so they are cached as read.
 */
@Injectable()
export class PolicyCopy {
  private readonly logger = new Logger(PolicyCopy.name);
  private readonly documents = new Map<string, PolicyPack>();
  /** Pack sets as last read, for PACK_SET_CACHE_MS: intake reads one per request. */
  private readonly packSets = new Map<string, { readAt: number; row: PackSetRow | undefined }>();

  constructor(private readonly uow: UnitOfWork) {}

  /** Keeps a tenant's pack set, unless a later revision is already kept (events may arrive twice or late). */
  async keepPackSet(manager: EntityManager, data: PackSetChangedV1): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.table('policy_pack_sets')} AS s (tenant_id, revision, built_in_pins, activations, occurred_at) VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)
       ON CONFLICT (tenant_id) DO UPDATE SET revision = $2, built_in_pins = $3::jsonb, activations = $4::jsonb, occurred_at = $5 WHERE s.revision < $2`,
      [data.tenantId, data.revision, JSON.stringify(data.builtInPins), JSON.stringify(data.activations), data.occurredAt],
    );
    this.packSets.delete(data.tenantId);
  }

  async keepCustomPack(manager: EntityManager, data: CustomPackRegisteredV1): Promise<void> {
    await manager.query(`INSERT INTO ${this.table('policy_custom_packs')} (tenant_id, name, jurisdiction, version, document) VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT DO NOTHING`, [
      data.tenantId,
      data.name,
      data.jurisdiction,
      data.version,
      JSON.stringify(data.pack),
    ]);
  }

  /**
   * The version a new request of the scope pins in a jurisdiction: a custom pack activated for its workspace,
   * else for its tenant, else the built-in version in force on the local day of receipt, among the releases the
   * tenant is on.
   */
  async choose(manager: EntityManager, scope: TenantScope, resolved: ResolvedJurisdiction, receivedAt: Date): Promise<PinnedPack> {
    const code = resolved.binding.code;
    const set = await this.packSetOf(manager, scope.tenantId);
    const activations = set?.activations.filter((a) => a.jurisdiction === code) ?? [];
    const activation = (scope.workspaceId ? activations.find((a) => a.workspaceId === scope.workspaceId) : undefined) ?? activations.find((a) => a.workspaceId === null);
    if (activation) {
      const pack = await this.customDocument(manager, scope.tenantId, activation.name, activation.version, code);
      const binding = pack && bindingIn(pack, code);
      if (pack && binding) {
        const where = activation.workspaceId ? `workspace ${activation.workspaceId}` : `tenant ${scope.tenantId}`;
        return { pack, binding, basis: `Custom pack ${pack.packId} ${pack.version}, activated for ${where} in ${code}.` };
      }
      // The activation's document has not arrived yet: the statutory pack, never no pack.
      this.logger.warn(`custom pack ${activation.name} ${activation.version} of an activation is not in the copy yet; the built-in pack applies`);
    }
    const chosen = builtInVersionAt(resolved.pack.packId, resolved.binding, receivedAt, set?.built_in_pins[resolved.pack.packId]);
    if (!chosen) return { pack: resolved.pack, binding: resolved.binding, basis: `${resolved.pack.packId} ${resolved.pack.version}.` };
    return { ...chosen, binding: bindingIn(chosen.pack, code) ?? resolved.binding };
  }

  /** The pack document a request pinned: built-in, or one of its tenant's custom packs. */
  async packOf(manager: EntityManager, row: PinnedRow): Promise<PolicyPack> {
    const pack = policyPackVersion(row.policyPack, row.policyVersion) ?? (await this.customDocument(manager, row.tenantId, row.policyPack, row.policyVersion, row.jurisdiction));
    if (!pack) throw new ProblemError('INTERNAL_ERROR', `Request ${row.id} is pinned to policy pack ${row.policyPack} ${row.policyVersion} for ${row.jurisdiction}, which this service does not hold.`);
    return pack;
  }

  /** A custom pack version of the tenant for a jurisdiction, from the cache or the copy. */
  async customDocument(manager: EntityManager, tenantId: string, name: string, version: string, jurisdiction: string): Promise<PolicyPack | undefined> {
    const key = `${tenantId}\n${name}\n${version}\n${jurisdiction}`;
    const cached = this.documents.get(key);
    if (cached) return cached;
    const [row]: Array<{ document: PolicyPack }> = await manager.query(
      `SELECT document FROM ${this.table('policy_custom_packs')} WHERE tenant_id = $1 AND name = $2 AND version = $3 AND jurisdiction = $4`,
      [tenantId, name, version, jurisdiction],
    );
    if (row) this.documents.set(key, row.document);
    return row?.document;
  }

  /**
   * A tenant's pack set from the copy. A set read less than PACK_SET_CACHE_MS ago is used again: another replica may
   * have stored a newer one in that time, which then applies a moment later, as the event itself arrives later.
   */
  private async packSetOf(manager: EntityManager, tenantId: string): Promise<PackSetRow | undefined> {
    const now = performance.now();
    const cached = this.packSets.get(tenantId);
    if (cached && now - cached.readAt < PACK_SET_CACHE_MS) return cached.row;
    const [row]: PackSetRow[] = await manager.query(`SELECT revision, built_in_pins, activations FROM ${this.table('policy_pack_sets')} WHERE tenant_id = $1`, [tenantId]);
    if (this.packSets.size >= MAX_CACHED_PACK_SETS) this.packSets.clear();
    this.packSets.set(tenantId, { readAt: now, row });
    return row;
  }

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }
}

/**
 * The built-in version of a pack in force on the local day of a receipt in a jurisdiction's calendar, among the
 * releases up to `ceiling` (the one the tenant is on; all of them when undefined), and why in words. Intake pins
 * with it, and an applied upgrade re-pins with it.
 */
export function builtInVersionAt(packId: string, binding: JurisdictionBinding, receivedAt: Date, ceiling: string | undefined): { pack: PolicyPack; basis: string } | undefined {
  const localDate = localDateOf(receivedAt, binding.timeZone);
  const versions = builtInVersionsOf(packId);
  const chosen = versionInForce(versions, localDate, ceiling);
  return chosen && { pack: chosen.pack, basis: builtInBasis(chosen.pack, chosen.basis, localDate, binding.timeZone, versions, ceiling) };
}

/** Why a built-in version applies, in words for the clock explanation. */
function builtInBasis(pack: PolicyPack, basis: 'in_force' | 'earliest', localDate: string, timeZone: string, versions: readonly PolicyPack[], ceiling: string | undefined): string {
  const parts =
    basis === 'in_force'
      ? [`${pack.packId} ${pack.version} (in force from ${pack.effectiveFrom}) applies to a request received on ${localDate} (${timeZone}).`]
      : [`Received on ${localDate} (${timeZone}), before any version of ${pack.packId} took effect: ${pack.version}, the earliest (from ${pack.effectiveFrom}), applies.`];
  const next = versions.filter((v) => v.effectiveFrom > localDate).sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : 1))[0];
  if (basis === 'in_force' && next) parts.push(`${next.packId} ${next.version} applies to requests received from ${next.effectiveFrom}.`);
  const newest = versions[versions.length - 1];
  if (ceiling !== undefined && newest && compareVersions(ceiling, newest.version) < 0)
    parts.push(`The tenant is on release ${ceiling} of ${pack.packId}; ${newest.version} awaits an upgrade proposal.`);
  return parts.join(' ');
}
