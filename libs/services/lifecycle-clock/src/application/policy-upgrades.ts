import { Injectable, Logger } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { bindingIn, builtInVersionsOf, OPEN_STATUSES, type PolicyPack, type PolicyUsage, type UpgradeAppliedV1, type UpgradeChange } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { RequestEntity } from '../infrastructure/request.entity';
import { builtInVersionAt, PolicyCopy } from './policy-copy';
import { RequestClock } from './request-clock';

/**
 * What policy administration needs of the requests: how many open requests
 * pin each pack version (for upgrade proposals), and the re-pinning of open
 * requests when an applied upgrade asks for it.
 */
@Injectable()
export class PolicyUpgrades {
  private readonly logger = new Logger(PolicyUpgrades.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly legalClock: RequestClock,
    private readonly policies: PolicyCopy,
  ) {}

  async usage(scope: TenantScope): Promise<PolicyUsage[]> {
    const rows: Array<{ policy_pack: string; policy_version: string; jurisdiction: string; open: string }> = await this.uow.dataSource
      .getRepository(RequestEntity)
      .createQueryBuilder('r')
      .select(['r.policy_pack AS policy_pack', 'r.policy_version AS policy_version', 'r.jurisdiction AS jurisdiction', 'COUNT(*) AS open'])
      .where('r.tenant_id = :tenant', { tenant: scope.tenantId })
      .andWhere(scope.workspaceId ? 'r.workspace_id = :workspace' : 'TRUE', { workspace: scope.workspaceId })
      .andWhere('r.status IN (:...open)', { open: [...OPEN_STATUSES] })
      .groupBy('r.policy_pack, r.policy_version, r.jurisdiction')
      .orderBy('r.policy_pack')
      .getRawMany();
    return rows.map((r) => ({ policyPack: r.policy_pack, policyVersion: r.policy_version, jurisdiction: r.jurisdiction, open: Number(r.open) }));
  }

  /**
   * Re-pins the open requests of each change, in the consumer's transaction: one at a time, each row locked, so
   * a workflow step on the same request waits or goes first. A request already moved is left alone, so a
   * redelivered event changes nothing twice.
   */
  async repin(manager: EntityManager, data: UpgradeAppliedV1): Promise<number> {
    if (!data.repinOpenRequests) return 0;
    let moved = 0;
    for (const change of data.changes) {
      const rows = await manager.find(RequestEntity, {
        where: {
          tenantId: data.tenantId,
          policyPack: change.packId,
          policyVersion: change.from,
          status: In([...OPEN_STATUSES]),
          ...(change.jurisdiction ? { jurisdiction: change.jurisdiction } : {}),
          ...(change.workspaceId ? { workspaceId: change.workspaceId } : {}),
        },
        order: { id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      for (const row of rows) {
        const target = await this.target(manager, row, change);
        if (!target || target.pack.version === row.policyVersion) continue;
        const ok = await this.legalClock.repinLocked(manager, row, target, { proposalId: data.proposalId, actor: data.actor, at: new Date(data.occurredAt) });
        if (ok) moved++;
        else this.logger.warn(`request ${row.id} keeps ${row.policyPack} ${row.policyVersion}: its clock history does not fit ${change.to}`);
      }
    }
    return moved;
  }

  /** The version a request moves to: the custom pack's new version, or the built-in version in force at its receipt under the new release. */
  private async target(manager: EntityManager, row: RequestEntity, change: UpgradeChange): Promise<{ pack: PolicyPack; basis: string } | undefined> {
    if (change.source === 'custom') {
      const pack = await this.policies.customDocument(manager, row.tenantId, change.packId, change.to, row.jurisdiction);
      return pack && bindingIn(pack, row.jurisdiction) ? { pack, basis: `Custom pack ${pack.packId} ${pack.version}, re-pinned from ${row.policyVersion} by upgrade proposal.` } : undefined;
    }
    const binding = builtInVersionsOf(change.packId)
      .map((v) => bindingIn(v, row.jurisdiction))
      .find((b) => b !== undefined);
    return binding && builtInVersionAt(change.packId, binding, row.intakeReceivedAt, change.to);
  }
}
