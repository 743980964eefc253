import { Controller, Get, Param, Query } from '@nestjs/common';
import { type AuditCheckpoint, type AuditCheckpointDetail, auditCheckpointQuery, isUuid, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, parseInput } from '@dsar/platform/http';
import { Ledger } from '../application/ledger';

/** A tenant's signed checkpoints (public under /api/v1/audit/checkpoints). They cover every workspace, so a caller confined to one may not read them. */
@Controller('internal/v1/audit/checkpoints')
export class CheckpointsController {
  constructor(private readonly ledger: Ledger) {}

  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<AuditCheckpoint[]> {
    const query = parseInput(auditCheckpointQuery, rawQuery, 'query');
    return this.ledger.store.checkpoints(this.ledger.dataSource, this.tenantOf(principal), query.limit ?? 20);
  }

  @Get(':checkpointId')
  async get(@CurrentPrincipal() principal: Principal, @Param('checkpointId') checkpointId: string): Promise<AuditCheckpointDetail> {
    const tenantId = this.tenantOf(principal);
    const checkpoint = isUuid(checkpointId) ? await this.ledger.store.checkpoint(this.ledger.dataSource, tenantId, checkpointId) : undefined;
    if (!checkpoint) throw new ProblemError('RESOURCE_NOT_FOUND', `No checkpoint ${checkpointId}.`);
    return { ...checkpoint, leaves: await this.ledger.store.checkpointLeaves(this.ledger.dataSource, checkpointId) };
  }

  private tenantOf(principal: Principal): string {
    if (principal.workspaceId) throw new ProblemError('PERMISSION_DENIED', 'Checkpoints cover every workspace of the tenant; a caller confined to one workspace may not read them.');
    return principal.tenantId;
  }
}
