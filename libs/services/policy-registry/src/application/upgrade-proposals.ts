import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  builtInChangelog,
  builtInVersionsOf,
  compareVersions,
  newestReleases,
  isUuid,
  type PackActivation,
  PolicyEventTypes,
  type Principal,
  type ProposalStatus,
  tenantSubject,
  type UpgradeAppliedV1,
  type UpgradeApprovedV1,
  type UpgradeChange,
  type UpgradeProposal,
  type UpgradeProposalCommand,
  type UpgradeProposalStatus,
  type UpgradeProposedV1,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { POLICY_ADMIN_SETTINGS, type PolicyAdminSettings, policyFourEyesFor } from '../policy-admin-settings';
import { CustomPacks, type CustomPackRecord } from './custom-packs';
import { type PackSet, PackSets } from './pack-sets';

type Row = {
  id: string;
  tenant_id: string;
  status: ProposalStatus;
  repin: boolean;
  changes: UpgradeChange[];
  proposed_by: string;
  proposed_at: Date;
  approved_by: string | null;
  approved_at: Date | null;
  applied_by: string | null;
  applied_at: Date | null;
};

/**
 * Upgrade proposals (docs/policy-packs/README.md, "Upgrades"): the change
 * management of a tenant's pack set. A proposal lists what would move (each
 * built-in pin and each custom activation behind its newest release, with the
 * changelogs and the open requests pinned to the old version); another
 * principal approves it (four eyes, unless the tenant turned it off); apply
 * moves the set, and with `repinOpenRequests` lifecycle-clock re-pins the
 * open requests from the applied event. Each step locks the proposal row, so
 * two callers cannot both approve or both apply.
 */
@Injectable()
export class UpgradeProposals {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly packSets: PackSets,
    private readonly customPacks: CustomPacks,
    @Inject(POLICY_ADMIN_SETTINGS) private readonly settings: PolicyAdminSettings,
    private readonly lifecycle: LifecycleClient,
  ) {}

  async propose(principal: Principal, command: UpgradeProposalCommand): Promise<UpgradeProposalStatus> {
    const tenantId = principal.tenantId;
    const set = await this.packSets.read(tenantId);
    // Under four eyes an upgrade is one more way to put a custom version in force: it offers approved versions only.
    const approvedOnly = policyFourEyesFor(this.settings, tenantId);
    const planned = plannedChanges(set, await this.customPacks.versions(tenantId), approvedOnly ? (v) => v.approvedBy !== null : undefined);
    if (planned.length === 0) {
      throw new ProblemError('POLICY_NOTHING_TO_UPGRADE', `Every pack the tenant uses is at its newest release${approvedOnly ? ' (for a custom pack, its newest approved version)' : ''}.`);
    }
    const usage = await this.lifecycle.policyUsage(principal);
    const changes = planned.map((c) => ({
      ...c,
      openRequests: usage.filter((u) => u.policyPack === c.packId && u.policyVersion === c.from && (c.jurisdiction === null || u.jurisdiction === c.jurisdiction)).reduce((n, u) => n + u.open, 0),
    }));
    const repin = command.repinOpenRequests ?? false;
    const now = this.clock.now();
    const id = randomUUID();
    return this.uow.run(async (tx) => {
      await tx.query(`INSERT INTO ${this.table()} (id, tenant_id, status, repin, changes, proposed_by, proposed_at) VALUES ($1, $2, 'pending_approval', $3, $4::jsonb, $5, $6)`, [
        id,
        tenantId,
        repin,
        JSON.stringify(changes),
        principal.id,
        now,
      ]);
      const data: UpgradeProposedV1 = { tenantId, actor: principal.id, occurredAt: now.toISOString(), proposalId: id, repinOpenRequests: repin, changes };
      await this.outbox.record(tx, { type: PolicyEventTypes.upgradeProposed, subject: tenantSubject(tenantId), tenantId, data });
      return { proposalId: id, status: 'pending_approval' as const };
    });
  }

  async approve(principal: Principal, id: string): Promise<UpgradeProposalStatus> {
    return this.uow.run(async (tx) => {
      const row = await this.lockIn(tx, principal, id, 'pending_approval', 'approve');
      if (policyFourEyesFor(this.settings, row.tenant_id) && row.proposed_by === principal.id) {
        throw new ProblemError('POLICY_FOUR_EYES_REQUIRED', `Proposal ${id} was proposed by ${principal.id}; another principal must approve it.`);
      }
      const now = this.clock.now();
      await tx.query(`UPDATE ${this.table()} SET status = 'approved', approved_by = $2, approved_at = $3 WHERE id = $1`, [id, principal.id, now]);
      const data: UpgradeApprovedV1 = { tenantId: row.tenant_id, actor: principal.id, occurredAt: now.toISOString(), proposalId: id, proposedBy: row.proposed_by };
      await this.outbox.record(tx, { type: PolicyEventTypes.upgradeApproved, subject: tenantSubject(row.tenant_id), tenantId: row.tenant_id, data });
      return { proposalId: id, status: 'approved' as const };
    });
  }

  async apply(principal: Principal, id: string): Promise<UpgradeProposalStatus> {
    return this.uow.run(async (tx) => {
      const row = await this.lockIn(tx, principal, id, 'approved', 'apply');
      const now = this.clock.now();
      const set = await this.packSets.lock(tx, row.tenant_id);
      await this.packSets.commit(tx, set, movedBy(set, row.changes), now, principal.id);
      await tx.query(`UPDATE ${this.table()} SET status = 'applied', applied_by = $2, applied_at = $3 WHERE id = $1`, [id, principal.id, now]);
      const data: UpgradeAppliedV1 = { tenantId: row.tenant_id, actor: principal.id, occurredAt: now.toISOString(), proposalId: id, repinOpenRequests: row.repin, changes: row.changes };
      await this.outbox.record(tx, { type: PolicyEventTypes.upgradeApplied, subject: tenantSubject(row.tenant_id), tenantId: row.tenant_id, data });
      return { proposalId: id, status: 'applied' as const };
    });
  }

  async list(principal: Principal, status?: ProposalStatus): Promise<UpgradeProposal[]> {
    const rows: Row[] = await this.uow.dataSource.manager.query(`SELECT * FROM ${this.table()} WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY proposed_at DESC, id`, [
      principal.tenantId,
      status ?? null,
    ]);
    return rows.map(viewOf);
  }

  async get(principal: Principal, id: string): Promise<UpgradeProposal> {
    return viewOf(await this.find(this.uow.dataSource.manager, principal, id, false));
  }

  /** The proposal, locked, when it is in the state the step needs; another tenant's does not exist. */
  private async lockIn(tx: EntityManager, principal: Principal, id: string, wanted: ProposalStatus, step: string): Promise<Row> {
    const row = await this.find(tx, principal, id, true);
    if (row.status !== wanted) {
      throw new ProblemError('POLICY_PROPOSAL_STATE_CONFLICT', `Proposal ${id} is ${row.status}; ${step} needs it ${wanted}.`, undefined, { status: row.status });
    }
    return row;
  }

  private async find(manager: EntityManager, principal: Principal, id: string, lock: boolean): Promise<Row> {
    const rows: Row[] = isUuid(id) ? await manager.query(`SELECT * FROM ${this.table()} WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, principal.tenantId]) : [];
    if (rows.length === 0) throw new ProblemError('RESOURCE_NOT_FOUND', `No upgrade proposal ${id}.`);
    return rows[0];
  }

  private table(): string {
    return qualifiedTable(this.uow.dataSource, 'policy_upgrade_proposals');
  }
}

/**
 * What an upgrade would move now: built-in pins and custom activations behind their newest release (without
 * counts). A custom activation moves to the newest version `offered` accepts, with the changelogs of every version
 * passed over.
 */
export function plannedChanges(set: PackSet, custom: readonly CustomPackRecord[], offered: (version: CustomPackRecord) => boolean = () => true): Array<Omit<UpgradeChange, 'openRequests'>> {
  const changes: Array<Omit<UpgradeChange, 'openRequests'>> = [];
  for (const newest of newestReleases()) {
    const from = set.builtInPins[newest.packId];
    if (!from || compareVersions(newest.version, from) <= 0) continue;
    const between = builtInVersionsOf(newest.packId).filter((p) => compareVersions(p.version, from) > 0);
    changes.push({
      source: 'built_in',
      packId: newest.packId,
      jurisdiction: null,
      workspaceId: null,
      from,
      to: newest.version,
      changelog: changelogOf(between.map((p) => ({ version: p.version, changelog: builtInChangelog(p.packId, p.version) }))),
    });
  }
  for (const active of set.activations) {
    const newer = custom.filter((c) => c.name === active.name && c.jurisdiction === active.jurisdiction && compareVersions(c.version, active.version) > 0);
    const to = newer.filter(offered).at(-1)?.version;
    if (to === undefined) continue;
    const between = newer.filter((c) => compareVersions(c.version, to) <= 0);
    changes.push({ source: 'custom', packId: active.name, jurisdiction: active.jurisdiction, workspaceId: active.workspaceId, from: active.version, to, changelog: changelogOf(between) });
  }
  return changes;
}

/** The pack set an applied proposal leaves: each change moves its pin or activation forward, never back. */
export function movedBy(set: PackSet, changes: readonly UpgradeChange[]): { builtInPins: Record<string, string>; activations: PackActivation[] } {
  const builtInPins = { ...set.builtInPins };
  let activations = [...set.activations];
  for (const c of changes) {
    if (c.source === 'built_in') {
      const now = builtInPins[c.packId];
      if (!now || compareVersions(c.to, now) > 0) builtInPins[c.packId] = c.to;
      continue;
    }
    // A custom activation deactivated or switched to another pack since the proposal is left as it is.
    activations = activations.map((a) =>
      a.workspaceId === c.workspaceId && a.jurisdiction === c.jurisdiction && a.name === c.packId && compareVersions(c.to, a.version) > 0 ? { ...a, version: c.to } : a,
    );
  }
  return { builtInPins, activations };
}

/** The changelogs of the versions passed over, newest first. */
function changelogOf(versions: ReadonlyArray<{ version: string; changelog: string }>): string {
  return [...versions]
    .reverse()
    .map((v) => `${v.version}: ${v.changelog}`)
    .join('\n');
}

function viewOf(row: Row): UpgradeProposal {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    proposalId: row.id,
    tenantId: row.tenant_id,
    status: row.status,
    repinOpenRequests: row.repin,
    changes: row.changes,
    proposedBy: row.proposed_by,
    proposedAt: new Date(row.proposed_at).toISOString(),
    approvedBy: row.approved_by,
    approvedAt: iso(row.approved_at),
    appliedBy: row.applied_by,
    appliedAt: iso(row.applied_at),
  };
}
