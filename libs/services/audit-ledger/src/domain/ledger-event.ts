import type { CloudEventEnvelope } from '@dsar/contracts';
import type { EntryFacts } from '@dsar/platform/audit-chain';

/** The event fields the chain keeps. */
export type LedgerEvent = Pick<CloudEventEnvelope, 'id' | 'type' | 'source' | 'subject' | 'tenantid' | 'time' | 'data'>;

/** Who acted: the principal the event names, else the service that emitted it (`/dsar/lifecycle-clock` → `lifecycle-clock`). */
export function actorOf(event: LedgerEvent): string {
  const named = event.data['actor'];
  if (typeof named === 'string' && named.length > 0) return named;
  return event.source.split('/').filter(Boolean).pop() ?? event.source;
}

/** The entry's facts, before the ledger gives it a sequence: times as UTC text with milliseconds, the text the hash covers. */
export function factsOfEvent(event: LedgerEvent, payload: Record<string, unknown>, recordedAt: Date): Omit<EntryFacts, 'sequence'> {
  return {
    tenantId: event.tenantid,
    requestId: event.subject,
    eventId: event.id,
    eventType: event.type,
    source: event.source,
    actor: actorOf(event),
    occurredAt: new Date(event.time).toISOString(),
    recordedAt: recordedAt.toISOString(),
    payload,
  };
}
