import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RequestClosures, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';
import { Artifacts } from './artifacts';

/**
 * Retention of `fulfilment_artifact` (docs/retention.md): a request's
 * artifacts count from the later of their newest version and the request's
 * closure (so from the delivery window of a fulfilled request on), and nothing
 * of an open request goes. Every version's bytes are deleted; the metadata
 * stays, marked purged.
 */
@Injectable()
export class ArtifactPurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'fulfilment_artifact';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly artifacts: Artifacts,
    private readonly closures: RequestClosures,
  ) {}

  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    return this.closures.dueGroups(tenantId, cutoff, limit, (after, size) =>
      this.uow.dataSource.query(
        `SELECT request_id::text AS key, array_agg(DISTINCT artifact_id::text) AS ids, count(*)::int AS files, max(created_at) AS newest
           FROM ${qualifiedTable(this.uow.dataSource, 'fulfilment_artifact_versions')}
          WHERE tenant_id = $1 AND purged_at IS NULL AND created_at <= $2 AND ($3::text IS NULL OR request_id::text > $3)
          GROUP BY request_id ORDER BY request_id::text LIMIT $4`,
        [tenantId, cutoff, after ?? null, size],
      ),
    );
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    const done = await this.artifacts.purgeIn(tx, tenantId, group.requestId as string, 'system:retention', { artifactIds: group.recordIds, createdBy: cutoff });
    if (done.artifactIds.length === 0) return null;
    return { purged: { ...group, workspaceId: done.workspaceId, recordIds: done.artifactIds, files: done.versions }, afterCommit: done.deleteBytes };
  }
}
