import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { LAST_EVENT_HEADER, newRequestCommand, type Principal, queueQuery, requestDetailQuery, requestorRevealCommand } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, parseInput, scopeOf } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { RequestAppeals } from '../application/request-appeals';
import { RequestIdentities } from '../application/request-identities';
import { RequestLifecycle } from '../application/request-lifecycle';
import { RequestQueue } from '../application/request-queue';
import { RequestRegistry } from '../application/request-registry';
import { RequestorReveals } from '../application/requestor-reveals';
import { maskedDetail } from '../domain/identity/requestor-identities';
import type { RequestEntity } from '../infrastructure/request.entity';
import { detailOf, queuePageOf, transitionRecordOf } from './request-views';

/** lifecycle-clock's internal API for the request aggregate (the gateway exposes it under /api/v1). */
@Controller('internal/v1/requests')
export class RequestsController {
  constructor(
    private readonly registry: RequestRegistry,
    private readonly queue: RequestQueue,
    private readonly appeals: RequestAppeals,
    private readonly lifecycle: RequestLifecycle,
    private readonly clock: Clock,
    private readonly identities: RequestIdentities,
    private readonly reveals: RequestorReveals,
  ) {}

  /** Creates a request from a normalized intake (intake-gateway calls this). */
  @Post()
  @HttpCode(202)
  @Idempotent()
  async create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    const command = parseInput(newRequestCommand, body);
    const row = await this.registry.create(scopeOf(principal), command);
    return { id: row.id, receivedAt: row.receivedAt.toISOString(), dueAt: row.dueAt.toISOString(), status: row.status };
  }

  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() rawQuery: Record<string, unknown>) {
    const query = parseInput(queueQuery, rawQuery, 'query');
    const now = this.clock.now();
    const slice = await this.queue.page(scopeOf(principal), query, now);
    return queuePageOf(slice, query, now);
  }

  /**
   * The request a reference names (`DSAR-1A2B3C4D`) in the caller's scope, as its detail: intake-gateway matches a
   * reply that quotes it. 404 when none, or more than one, has it. Internal only; the gateway does not route it.
   */
  @Get('references/:reference')
  async byReference(@CurrentPrincipal() principal: Principal, @Param('reference') reference: string) {
    const row = await this.registry.findByReference(scopeOf(principal), reference);
    if (!row) throw new ProblemError('RESOURCE_NOT_FOUND', `No request has the reference ${reference}.`);
    return this.detailOf(row);
  }

  /**
   * By the request's id or its short reference (`DSAR-1A2B3C4D`): a reference answers what the id does, directly
   * (docs/lifecycle.md#finding-a-request). `?requestor=masked` masks the requestor's identities (the console's view).
   */
  @Get(':idOrReference')
  async detail(@CurrentPrincipal() principal: Principal, @Param('idOrReference') idOrReference: string, @Query() rawQuery: Record<string, unknown>, @Res({ passthrough: true }) res: Response) {
    const query = parseInput(requestDetailQuery, rawQuery, 'query');
    const row = await this.registry.requireByIdOrReference(scopeOf(principal), idOrReference);
    if (row.lastEventId) res.setHeader(LAST_EVENT_HEADER, row.lastEventId);
    const detail = await this.detailOf(row);
    return query.requestor === 'masked' ? maskedDetail(detail) : detail;
  }

  /**
   * The requestor's identities in clear, recorded with the caller's reason (`dsar.request.requestor_revealed.v1`).
   * Not idempotent on purpose: a replayed answer would show them again without a record of it.
   */
  @Post(':id/requestor/reveal')
  @HttpCode(200)
  reveal(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.reveals.reveal(principal, id, parseInput(requestorRevealCommand, body));
  }

  private async detailOf(row: RequestEntity) {
    const manager = this.registry.manager;
    const [appeals, activity] = await Promise.all([this.appeals.viewsOf(manager, row.id), this.identities.activityOf(manager, row)]);
    return detailOf(row, appeals, activity);
  }

  /**
   * One step of the request's workflow, by the domain event it emitted, with what was said (the clarification
   * question, the refusal notice…): for the services that tell the requester. Internal only; the gateway does not route it.
   */
  @Get(':id/transitions/:eventId')
  async transition(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('eventId') eventId: string) {
    return transitionRecordOf(await this.lifecycle.transitionOf(scopeOf(principal), id, eventId));
  }
}
