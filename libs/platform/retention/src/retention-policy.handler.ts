import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, RetentionEventTypes, type RetentionPolicyChangedV1 } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { RetentionRules } from './retention-rules';

/** Keeps the service's copy of the retention policies from policy-registry's events, in the consumer's inbox transaction. */
@Controller()
export class RetentionPolicyHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly rules: RetentionRules,
  ) {}

  @EventPattern(RetentionEventTypes.policyChanged)
  async onPolicyChanged(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.rules.apply(this.uow.manager, event.data as RetentionPolicyChangedV1);
  }
}
