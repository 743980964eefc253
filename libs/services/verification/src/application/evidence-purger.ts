import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RequestClosures, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';
import { VerificationEvidence } from './verification-evidence';

/**
 * Retention of `verification_evidence` (docs/retention.md): a request's
 * evidence files count from the later of their newest upload and the
 * request's closure, and nothing of an open request goes. The bytes are
 * deleted; the metadata stays, marked purged.
 */
@Injectable()
export class EvidencePurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'verification_evidence';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly evidence: VerificationEvidence,
    private readonly closures: RequestClosures,
  ) {}

  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    return this.closures.dueGroups(tenantId, cutoff, limit, (after, size) =>
      this.uow.dataSource.query(
        `SELECT request_id::text AS key, array_agg(artifact_key ORDER BY artifact_key) AS ids, max(uploaded_at) AS newest, count(*)::int AS files
           FROM ${qualifiedTable(this.uow.dataSource, 'verification_evidence_files')}
          WHERE tenant_id = $1 AND purged_at IS NULL AND uploaded_at <= $2 AND ($3::text IS NULL OR request_id::text > $3)
          GROUP BY request_id ORDER BY request_id::text LIMIT $4`,
        [tenantId, cutoff, after ?? null, size],
      ),
    );
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    const done = await this.evidence.purgeIn(tx, tenantId, group.requestId as string, 'system:retention', { keys: group.recordIds, uploadedBy: cutoff });
    if (done.keys.length === 0) return null;
    return { purged: { ...group, workspaceId: done.workspaceId, recordIds: done.keys, files: done.keys.length }, afterCommit: done.deleteBytes };
  }
}
