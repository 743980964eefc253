import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, RetentionEventTypes, type RetentionPurgedV1 } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { DataSystemFanoutEntity, DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';

/**
 * A request's record purged by retention (class `request_record`, lifecycle-clock) takes the identities its tasks
 * carried with it (docs/retention.md): they were copied from the request for its systems, and nothing may link the
 * person to the tenant once the request is gone. The tasks themselves stay, without identities, as the record of
 * what each system was asked and answered (the audit chain holds the same facts); a purged request has no open task,
 * since a request is purged only once closed.
 */
@Controller()
export class RequestPurgedHandler {
  constructor(private readonly uow: UnitOfWork) {}

  @EventPattern(RetentionEventTypes.purged)
  async onPurged(@Payload() event: CloudEventEnvelope): Promise<void> {
    const data = event.data as RetentionPurgedV1;
    if (data.class !== 'request_record' || data.requestId === null) return;
    const requestId = data.requestId;
    // The handler runs in the inbox's transaction: these writes join it.
    await this.uow.run(async (tx) => {
      await tx.update(DataSystemTaskEntity, { tenantId: data.tenantId, requestId }, { identities: [] });
      await tx.delete(DataSystemFanoutEntity, { requestId });
    });
  }
}
