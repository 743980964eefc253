import { Controller, Get, Param, Query } from '@nestjs/common';
import { type AuditCheckpoint, type AuditCheckpointDetail, auditCheckpointQuery, type Principal } from '@dsar/contracts';
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
    return this.ledger.checkpoints(this.tenantOf(principal), query.limit ?? 20);
  }

  @Get(':checkpointId')
  async get(@CurrentPrincipal() principal: Principal, @Param('checkpointId') checkpointId: string): Promise<AuditCheckpointDetail> {
    const checkpoint = await this.ledger.checkpointWithLeaves(this.tenantOf(principal), checkpointId);
    if (!checkpoint) throw new ProblemError('RESOURCE_NOT_FOUND', `No checkpoint ${checkpointId}.`);
    return checkpoint;
  }

  private tenantOf(principal: Principal): string {
    if (principal.workspaceId) throw new ProblemError('PERMISSION_DENIED', 'Checkpoints cover every workspace of the tenant; a caller confined to one workspace may not read them.');
    return principal.tenantId;
  }
}
