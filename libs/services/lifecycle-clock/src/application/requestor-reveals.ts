import { Injectable } from '@nestjs/common';
import { LifecycleEventTypes, type Principal, type RequestorReveal, type RequestorRevealCommand, type RequestorRevealedV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { scopeOf } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork } from '@dsar/platform/persistence';
import { requestorIdentitiesOf } from '../domain/identity/requestor-identities';
import { RequestEntity } from '../infrastructure/request.entity';
import { RequestRegistry } from './request-registry';

/**
 * Reveals of a requestor's identities (docs/lifecycle.md#the-requestor-masked-and-revealed): the caller gets them in
 * clear, and `dsar.request.requestor_revealed.v1` records who asked, why and which identities, in the same
 * transaction, so that no reveal answers without its record. Every reveal is recorded, the same one twice too.
 */
@Injectable()
export class RequestorReveals {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly registry: RequestRegistry,
    private readonly clock: Clock,
  ) {}

  reveal(principal: Principal, id: string, command: RequestorRevealCommand): Promise<RequestorReveal> {
    return this.uow.run(async (tx) => {
      // Locked as every write of the request is: its newest event moves, in the order the writes commit.
      const row = await this.registry.require(scopeOf(principal), id, { manager: tx, lock: true });
      const revealedAt = this.clock.now().toISOString();
      const identities = requestorIdentitiesOf(row);
      const data: RequestorRevealedV1 = {
        requestId: row.id,
        tenantId: row.tenantId,
        workspaceId: row.workspaceId,
        actor: principal.id,
        reason: command.reason,
        fields: identities.fields,
        revealedAt,
      };
      const event = await this.outbox.record(tx, { type: LifecycleEventTypes.requestorRevealed, subject: row.id, tenantId: row.tenantId, data });
      // The timeline waits for the request's newest event; a reveal changes nothing of the request, so its updatedAt stays.
      await tx.update(RequestEntity, { id: row.id, tenantId: row.tenantId }, { lastEventId: event.id, updatedAt: row.updatedAt });
      return { requestId: row.id, ...identities, revealedAt, eventId: event.id };
    });
  }
}
