import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RequestEventTypes, type RequestCreatedV1 } from '@dsar/contracts';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork } from '@dsar/platform/persistence';
import { RequestEntity } from '../infrastructure/request.entity';

export interface NewRequest {
  tenantId: string;
  workspaceId?: string | null;
  jurisdiction: string;
  requestType: string;
  channel: string;
  intakeReceivedAt: Date;
  receivedAt?: Date;
}

/**
 * Records new requests: the aggregate row and its `dsar.request.created.v1`
 * event commit in one transaction, so the event exists exactly when the
 * request does.
 */
@Injectable()
export class RequestRegistry {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
  ) {}

  async create(input: NewRequest): Promise<RequestEntity> {
    return this.uow.run(async (tx) => {
      const row = tx.create(RequestEntity, {
        id: randomUUID(),
        tenantId: input.tenantId,
        workspaceId: input.workspaceId ?? null,
        jurisdiction: input.jurisdiction,
        requestType: input.requestType,
        status: 'received',
        channel: input.channel,
        receivedAt: input.receivedAt ?? new Date(),
        intakeReceivedAt: input.intakeReceivedAt,
      });
      await tx.save(row);
      const data: RequestCreatedV1 = {
        requestId: row.id,
        tenantId: row.tenantId,
        workspaceId: row.workspaceId,
        jurisdiction: row.jurisdiction,
        requestType: row.requestType,
        status: 'received',
        receivedAt: row.receivedAt.toISOString(),
        intakeReceivedAt: row.intakeReceivedAt.toISOString(),
        channel: row.channel,
      };
      await this.outbox.record(tx, { type: RequestEventTypes.created, subject: row.id, tenantId: row.tenantId, data });
      return row;
    });
  }

  async find(tenantId: string, id: string): Promise<RequestEntity | null> {
    return this.uow.dataSource.getRepository(RequestEntity).findOneBy({ tenantId, id });
  }
}
