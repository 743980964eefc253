import { Controller, Get, Param, Query } from '@nestjs/common';
import { type AuditCheckpoint, type AuditCheckpointDetail, auditCheckpointQuery, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Ledger } from '../application/ledger';

const CHECKPOINTS = 'Signed checkpoints';

/** A tenant's signed checkpoints (public under /api/v1/audit/checkpoints). They cover every workspace, so a caller confined to one may not read them. */
@Controller('internal/v1/audit/checkpoints')
export class CheckpointsController {
  constructor(private readonly ledger: Ledger) {}

  @Get()
  async list(@TenantWidePrincipal(CHECKPOINTS) principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<AuditCheckpoint[]> {
    const query = parseInput(auditCheckpointQuery, rawQuery, 'query');
    return this.ledger.checkpoints(principal.tenantId, query.limit ?? 20);
  }

  @Get(':checkpointId')
  async get(@TenantWidePrincipal(CHECKPOINTS) principal: Principal, @Param('checkpointId') checkpointId: string): Promise<AuditCheckpointDetail> {
    const checkpoint = await this.ledger.checkpointWithLeaves(principal.tenantId, checkpointId);
    if (!checkpoint) throw new ProblemError('RESOURCE_NOT_FOUND', `No checkpoint ${checkpointId}.`);
    return checkpoint;
  }
}
