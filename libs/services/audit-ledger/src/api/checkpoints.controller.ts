import { Body, Controller, Get, HttpCode, Optional, Param, Post, Query } from '@nestjs/common';
import { type AuditCheckpoint, auditCheckpointCommand, type AuditCheckpointDetail, auditCheckpointQuery, type AuditCheckpointRun, type AuditSigningKeys, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, optionalBody, parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { CheckpointPublisher } from '../application/checkpoint-publisher';
import { Ledger } from '../application/ledger';

const CHECKPOINTS = 'Signed checkpoints';

/** A tenant's signed checkpoints (public under /api/v1/audit/checkpoints). They cover every workspace, so a caller confined to one may not read them. */
@Controller('internal/v1/audit/checkpoints')
export class CheckpointsController {
  constructor(
    private readonly ledger: Ledger,
    @Optional() private readonly publisher?: CheckpointPublisher,
  ) {}

  @Get()
  async list(@TenantWidePrincipal(CHECKPOINTS) principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<AuditCheckpoint[]> {
    const query = parseInput(auditCheckpointQuery, rawQuery, 'query');
    return this.ledger.checkpoints(principal.tenantId, query.limit ?? 20);
  }

  /** A checkpoint of the caller's tenant now; 200 with the newest one when nothing changed since it. */
  @Post()
  @HttpCode(200)
  // Each checkpoint commits on its own (a backlog is several, ADR 0043); the answer is recorded after them.
  @Idempotent({ ownTransactions: true })
  async create(@TenantWidePrincipal(CHECKPOINTS) principal: Principal, @Body() body: unknown): Promise<AuditCheckpointRun> {
    parseInput(auditCheckpointCommand, optionalBody(body));
    if (!this.publisher) throw new ProblemError('AUDIT_CHECKPOINTS_OFF', 'This audit ledger makes no signed checkpoints.');
    return this.publisher.checkpointTenant(principal.tenantId);
  }

  /** The ledger's public signing key: the same for every tenant, so any caller with the permission may read it. */
  @Get('keys')
  keys(@CurrentPrincipal() _principal: Principal): AuditSigningKeys {
    return { keys: this.publisher?.keys() ?? [] };
  }

  @Get(':checkpointId')
  async get(@TenantWidePrincipal(CHECKPOINTS) principal: Principal, @Param('checkpointId') checkpointId: string): Promise<AuditCheckpointDetail> {
    const checkpoint = await this.ledger.checkpointWithLeaves(principal.tenantId, checkpointId);
    if (!checkpoint) throw new ProblemError('RESOURCE_NOT_FOUND', `No checkpoint ${checkpointId}.`);
    return checkpoint;
  }
}
