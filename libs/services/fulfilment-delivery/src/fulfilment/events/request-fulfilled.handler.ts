import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, LifecycleEventTypes, type RequestFulfilledV1 } from '@dsar/contracts';
import { Fulfilments } from '../application/fulfilments';

/**
 * Records a fulfilment that lifecycle-clock accepted but whose caller died
 * before recording it (ADR 0022): the request's `dsar.request.fulfilled.v1`
 * finds the fulfilment noted on the manifest and records it, with its event
 * and the purge of the replaced versions, once.
 */
@Controller()
export class RequestFulfilledHandler {
  constructor(private readonly fulfilments: Fulfilments) {}

  @EventPattern(LifecycleEventTypes.fulfilled)
  async onFulfilled(@Payload() event: CloudEventEnvelope): Promise<void> {
    const data = event.data as RequestFulfilledV1;
    await this.fulfilments.record(data.tenantId, data.requestId);
  }
}
