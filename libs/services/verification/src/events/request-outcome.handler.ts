import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, LifecycleEventTypes, type RequestClosedV1, type RequestRefusedV1, type RequestVerifiedV1 } from '@dsar/contracts';
import { type Decision, VerificationCases } from '../application/verification-cases';
import { SYSTEM_ACTOR } from '../application/verification-monitor';

/**
 * Keeps cases in step with their request when it leaves verification_pending
 * by another path than this service's own calls: closed or refused by an
 * operator (the case is cancelled, no reminder follows), or a decision whose
 * case record was lost to a crash after lifecycle-clock accepted it (the
 * case records it from the request's event).
 */
@Controller()
export class RequestOutcomeHandler {
  constructor(private readonly cases: VerificationCases) {}

  @EventPattern([LifecycleEventTypes.verified, LifecycleEventTypes.refused, LifecycleEventTypes.closed])
  async onOutcome(@Payload() event: CloudEventEnvelope): Promise<void> {
    const data = event.data as RequestVerifiedV1 | RequestRefusedV1 | RequestClosedV1;
    if (data.fromStatus !== 'verification_pending') return;
    const pending = await this.cases.pendingCase(data.tenantId, data.requestId);
    if (!pending) return;
    // The decision the caller noted before asking lifecycle-clock, when it is the one that went through.
    const intended = (outcomes: string[]) => (pending.pendingDecision && outcomes.includes(pending.pendingDecision.outcome) ? pending.pendingDecision : undefined);
    if (event.type === LifecycleEventTypes.verified) {
      await this.cases.decide(pending, intended(['approved']) ?? { outcome: 'approved', by: data.actor });
    } else if (event.type === LifecycleEventTypes.refused && (data as RequestRefusedV1).reason === 'identity_not_verified') {
      const fallback: Decision = data.actor === SYSTEM_ACTOR ? { outcome: 'expired', by: data.actor, reason: 'no_response' } : { outcome: 'rejected', by: data.actor };
      await this.cases.decide(pending, intended(['rejected', 'expired']) ?? fallback);
    } else {
      await this.cases.cancel(data.requestId, data.status, data.actor);
    }
  }
}
