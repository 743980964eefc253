import { Inject, Injectable } from '@nestjs/common';
import {
  builtInPolicyPacks,
  builtInVersionsOf,
  type CustomPackActivated,
  type CustomPackActivation,
  type CustomPackActivatedV1,
  type CustomPackApproval,
  type CustomPackApproved,
  type CustomPackApprovedV1,
  type CustomPackDeactivated,
  type CustomPackDeactivation,
  type CustomPackDeactivatedV1,
  type CustomPackRegistered,
  type CustomPackRegisteredV1,
  type CustomPackRegistration,
  type PackActivation,
  type PolicyPack,
  PolicyEventTypes,
  type Principal,
  resolveJurisdiction,
  supportedJurisdictions,
  tenantSubject,
  versionInForce,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { consistencyFindings, protectionFindings, releaseStep } from '../domain/custom-pack-rules';
import { POLICY_ADMIN_SETTINGS, type PolicyAdminSettings, policyFourEyesFor } from '../policy-admin-settings';
import { PackSets } from './pack-sets';

/** A registered custom pack version as stored. */
export interface CustomPackRecord {
  readonly name: string;
  readonly jurisdiction: string;
  readonly version: string;
  readonly releaseType: string;
  readonly changelog: string;
  readonly pack: PolicyPack;
  readonly registeredBy: string;
  /** Who approved the version (four eyes), or null while nobody has. */
  readonly approvedBy: string | null;
}

type Row = { name: string; jurisdiction: string; version: string; release_type: string; changelog: string; document: PolicyPack; registered_by: string; approved_by: string | null };
type ApprovalRow = { registered_by: string; approved_by: string | null; approved_at: Date | null };

const BUILT_IN_IDS = new Set(builtInPolicyPacks().map((p) => p.packId));

/**
 * The custom packs of each tenant (docs/policy-packs/README.md, "Custom
 * packs"): registered versions are checked (consistent, a proper semver step,
 * never less protective than the statutory pack) and then never change;
 * under four eyes a principal other than the registrant approves a version
 * before it can be activated; activations choose the version new requests of
 * the tenant, or of one of its workspaces, pin in a jurisdiction.
 */
@Injectable()
export class CustomPacks {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly packSets: PackSets,
    @Inject(POLICY_ADMIN_SETTINGS) private readonly settings: PolicyAdminSettings,
  ) {}

  async register(principal: Principal, body: CustomPackRegistration): Promise<CustomPackRegistered> {
    const tenantId = principal.tenantId;
    const inconsistent = consistencyFindings(body, body.pack, BUILT_IN_IDS);
    if (inconsistent.length > 0) throw new ProblemError('CUSTOM_PACK_INVALID', `The custom pack cannot be used: ${inconsistent.map((f) => `${f.field} ${f.message}`).join('; ')}.`, inconsistent);
    const now = this.clock.now();
    const statutory = statutoryPackFor(body.jurisdiction, now);
    const weaker = protectionFindings(body.pack, statutory, body.jurisdiction);
    if (weaker.length > 0) {
      throw new ProblemError(
        'CUSTOM_PACK_LESS_PROTECTIVE',
        `The custom pack gives less protection than ${statutory.packId} ${statutory.version}: ${weaker.map((f) => `${f.field} ${f.message}`).join('; ')}.`,
        weaker,
        {
          statutoryPack: statutory.packId,
          statutoryVersion: statutory.version,
        },
      );
    }
    return this.uow.run(async (tx) => {
      // Registrations of a tenant take turns on its pack set, so two of one name cannot both take the next version.
      await this.packSets.lock(tx, tenantId);
      const [latest]: Array<{ version: string }> = await tx.query(`SELECT version FROM ${this.table()} WHERE tenant_id = $1 AND name = $2 AND jurisdiction = $3 ORDER BY version_key DESC LIMIT 1`, [
        tenantId,
        body.name,
        body.jurisdiction,
      ]);
      const step = releaseStep(latest?.version, body.version, body.metadata.releaseType);
      if (step.kind === 'not_newer') {
        throw new ProblemError(
          'CUSTOM_PACK_VERSION_NOT_NEWER',
          `${body.name} for ${body.jurisdiction} is registered up to ${step.latest}; a new version must be greater.`,
          [{ field: 'version', message: `must be greater than ${step.latest}` }],
          { latest: step.latest },
        );
      }
      if (step.kind === 'mismatch') {
        throw new ProblemError(
          'CUSTOM_PACK_RELEASE_TYPE_MISMATCH',
          `A ${body.metadata.releaseType} release after ${latest?.version} is ${step.expected}, not ${body.version}.`,
          [{ field: 'metadata.releaseType', message: `a ${body.metadata.releaseType} release after ${latest?.version} is ${step.expected}` }],
          { expected: step.expected },
        );
      }
      await tx.query(
        `INSERT INTO ${this.table()} (tenant_id, name, jurisdiction, version, version_key, release_type, changelog, compatibility_notes, document, published_at, registered_at, registered_by)
         VALUES ($1, $2, $3, $4, $5::int[], $6, $7, $8, $9::jsonb, $10, $11, $12)`,
        [
          tenantId,
          body.name,
          body.jurisdiction,
          body.version,
          body.version.split('.').map(Number),
          body.metadata.releaseType,
          body.metadata.changelog,
          body.metadata.compatibilityNotes,
          JSON.stringify(body.pack),
          body.publishedAt ?? now,
          now,
          principal.id,
        ],
      );
      const data: CustomPackRegisteredV1 = {
        tenantId,
        actor: principal.id,
        occurredAt: now.toISOString(),
        name: body.name,
        jurisdiction: body.jurisdiction,
        version: body.version,
        releaseType: body.metadata.releaseType,
        changelog: body.metadata.changelog,
        compatibilityNotes: body.metadata.compatibilityNotes,
        pack: body.pack,
      };
      await this.outbox.record(tx, { type: PolicyEventTypes.customRegistered, subject: tenantSubject(tenantId), tenantId, data });
      return { jurisdiction: body.jurisdiction, name: body.name, status: 'registered' as const, version: body.version };
    });
  }

  /**
   * A second principal's approval of a registered version. Approving an approved version records nothing and names
   * the approval on record, so a retry, or the loser of two approvals at once, learns who approved it.
   */
  async approve(principal: Principal, body: CustomPackApproval): Promise<CustomPackApproved> {
    const tenantId = principal.tenantId;
    const what = `${body.name} ${body.version} for ${body.jurisdiction}`;
    return this.uow.run(async (tx) => {
      // The version's row stays locked until the approval is stored, so two approvals at once record one.
      const [row]: ApprovalRow[] = await tx.query(
        `SELECT registered_by, approved_by, approved_at FROM ${this.table()} WHERE tenant_id = $1 AND name = $2 AND jurisdiction = $3 AND version = $4 FOR UPDATE`,
        [tenantId, body.name, body.jurisdiction, body.version],
      );
      if (!row) throw new ProblemError('CUSTOM_PACK_NOT_FOUND', `No custom pack ${body.name} for ${body.jurisdiction} is registered at version ${body.version}.`);
      if (policyFourEyesFor(this.settings, tenantId) && row.registered_by === principal.id) {
        throw new ProblemError('CUSTOM_PACK_FOUR_EYES_REQUIRED', `${what} was registered by ${principal.id}; another principal must approve it.`);
      }
      const answer = (approvedBy: string, approvedAt: Date): CustomPackApproved => ({
        jurisdiction: body.jurisdiction,
        name: body.name,
        status: 'approved',
        version: body.version,
        registeredBy: row.registered_by,
        approvedBy,
        approvedAt: approvedAt.toISOString(),
      });
      if (row.approved_by !== null && row.approved_at !== null) return answer(row.approved_by, new Date(row.approved_at));
      const now = this.clock.now();
      await tx.query(`UPDATE ${this.table()} SET approved_by = $5, approved_at = $6 WHERE tenant_id = $1 AND name = $2 AND jurisdiction = $3 AND version = $4`, [
        tenantId,
        body.name,
        body.jurisdiction,
        body.version,
        principal.id,
        now,
      ]);
      const data: CustomPackApprovedV1 = {
        tenantId,
        actor: principal.id,
        occurredAt: now.toISOString(),
        name: body.name,
        jurisdiction: body.jurisdiction,
        version: body.version,
        registeredBy: row.registered_by,
      };
      await this.outbox.record(tx, { type: PolicyEventTypes.customApproved, subject: tenantSubject(tenantId), tenantId, data });
      return answer(principal.id, now);
    });
  }

  async activate(principal: Principal, body: CustomPackActivation): Promise<CustomPackActivated> {
    const workspaceId = ownScope(principal, body.tenantId, body.workspaceId);
    const tenantId = body.tenantId;
    const candidates = (await this.versions(tenantId, body.jurisdiction)).filter((r) => r.version === body.version && (body.name === undefined || r.name === body.name));
    if (candidates.length === 0) {
      throw new ProblemError('CUSTOM_PACK_NOT_FOUND', `No custom pack${body.name ? ` ${body.name}` : ''} for ${body.jurisdiction} is registered at version ${body.version}.`);
    }
    if (candidates.length > 1) {
      const names = candidates.map((c) => c.name);
      throw new ProblemError(
        'CUSTOM_PACK_AMBIGUOUS',
        `Custom packs ${names.join(', ')} all cover ${body.jurisdiction} at ${body.version}; give name.`,
        [{ field: 'name', message: `must be one of ${names.join(', ')}` }],
        { names },
      );
    }
    const [registered] = candidates;
    const chosen: PackActivation = { workspaceId, jurisdiction: body.jurisdiction, name: registered.name, version: body.version };
    const result: CustomPackActivated = { jurisdiction: chosen.jurisdiction, name: chosen.name, status: 'activated', tenantId, version: chosen.version, workspaceId };
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const set = await this.packSets.lock(tx, tenantId);
      const same = (a: PackActivation) => a.workspaceId === workspaceId && a.jurisdiction === chosen.jurisdiction;
      const held = set.activations.find(same);
      // Activating what is already active changes nothing and says so again.
      if (held && held.name === chosen.name && held.version === chosen.version) return result;
      // Approvals are never withdrawn, so the state read before the transaction cannot have let an unapproved version through.
      if (policyFourEyesFor(this.settings, tenantId) && registered.approvedBy === null) {
        throw new ProblemError(
          'CUSTOM_PACK_NOT_APPROVED',
          `${chosen.name} ${chosen.version} for ${chosen.jurisdiction} was registered by ${registered.registeredBy} and nobody else has approved it (POST /policies/custom/approve); under four eyes it cannot be activated yet.`,
          undefined,
          { registeredBy: registered.registeredBy },
        );
      }
      await this.packSets.commit(tx, set, { activations: [...set.activations.filter((a) => !same(a)), chosen] }, now, principal.id);
      const data: CustomPackActivatedV1 = { tenantId, actor: principal.id, occurredAt: now.toISOString(), ...chosen };
      await this.outbox.record(tx, { type: PolicyEventTypes.customActivated, subject: tenantSubject(tenantId), tenantId, data });
      return result;
    });
  }

  /**
   * One admin may end activations even under four eyes: the scope falls back to rules already reviewed (the tenant's
   * activation of an approved version, or the built-in release the tenant is on, which only approved upgrades move),
   * and a pack found wrong after approval must be stoppable at once (docs/policy-packs/README.md, "Four eyes on custom
   * packs").
   */
  async deactivate(principal: Principal, body: CustomPackDeactivation): Promise<CustomPackDeactivated> {
    const workspaceId = ownScope(principal, body.tenantId, body.workspaceId);
    const tenantId = body.tenantId;
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const set = await this.packSets.lock(tx, tenantId);
      const ends = (a: PackActivation) => a.workspaceId === workspaceId && (body.jurisdiction === undefined || a.jurisdiction === body.jurisdiction);
      const ended = set.activations.filter(ends);
      if (ended.length === 0) {
        const where = `${workspaceId ? `workspace ${workspaceId}` : `tenant ${tenantId}`}${body.jurisdiction ? ` in ${body.jurisdiction}` : ''}`;
        throw new ProblemError('CUSTOM_PACK_NOT_ACTIVE', `No custom pack is active for ${where}.`);
      }
      await this.packSets.commit(tx, set, { activations: set.activations.filter((a) => !ends(a)) }, now, principal.id);
      const jurisdictions = ended.map((a) => a.jurisdiction);
      const data: CustomPackDeactivatedV1 = { tenantId, actor: principal.id, occurredAt: now.toISOString(), workspaceId, jurisdictions };
      await this.outbox.record(tx, { type: PolicyEventTypes.customDeactivated, subject: tenantSubject(tenantId), tenantId, data });
      return { status: 'deactivated' as const, tenantId, workspaceId, jurisdictions };
    });
  }

  /** Every registered version of the tenant's custom packs in a jurisdiction (or all), oldest first. */
  async versions(tenantId: string, jurisdiction?: string): Promise<CustomPackRecord[]> {
    const rows: Row[] = await this.uow.dataSource.manager.query(
      `SELECT name, jurisdiction, version, release_type, changelog, document, registered_by, approved_by FROM ${this.table()}
       WHERE tenant_id = $1 AND ($2::text IS NULL OR jurisdiction = $2) ORDER BY name, jurisdiction, version_key`,
      [tenantId, jurisdiction ?? null],
    );
    return rows.map((r) => ({
      name: r.name,
      jurisdiction: r.jurisdiction,
      version: r.version,
      releaseType: r.release_type,
      changelog: r.changelog,
      pack: r.document,
      registeredBy: r.registered_by,
      approvedBy: r.approved_by,
    }));
  }

  private table(): string {
    return qualifiedTable(this.uow.dataSource, 'custom_packs');
  }
}

/**
 * The scope a caller may change: its own tenant (another is a 404, as if it did not exist), and when its token
 * is bound to a workspace, that workspace only.
 */
export function ownScope(principal: Principal, tenantId: string, workspaceId: string | undefined): string | null {
  if (tenantId !== principal.tenantId) throw new ProblemError('RESOURCE_NOT_FOUND', `No tenant ${tenantId}.`);
  if (principal.workspaceId && workspaceId !== principal.workspaceId) {
    throw new ProblemError(
      'RESOURCE_NOT_FOUND',
      workspaceId ? `No workspace ${workspaceId}.` : `This token is bound to workspace ${principal.workspaceId}; give workspaceId ${principal.workspaceId}.`,
    );
  }
  return workspaceId ?? null;
}

/** The built-in pack a custom pack for a jurisdiction is measured against: its version in force today. */
function statutoryPackFor(jurisdiction: string, now: Date): PolicyPack {
  const resolved = resolveJurisdiction(jurisdiction);
  if (!resolved) {
    const supported = supportedJurisdictions();
    throw new ProblemError(
      'JURISDICTION_UNSUPPORTED',
      `No built-in pack covers jurisdiction '${jurisdiction}', so a custom pack cannot be measured against the law there. Supported: ${supported.join(', ')}.`,
      [{ field: 'jurisdiction', message: 'is not a supported jurisdiction' }],
      { supported },
    );
  }
  const inForce = versionInForce(builtInVersionsOf(resolved.pack.packId), now.toISOString().slice(0, 10));
  return inForce?.pack ?? resolved.pack;
}
