import { randomUUID } from 'node:crypto';
import { CLOUDEVENTS_CONTENT_TYPE, CloudEventHeaders, type CloudEventEnvelope, cloudEventEnvelopeSchema, type EventCatalog } from '@dsar/contracts';
import type { BusMessage } from './bus.port';

export interface EventDraft<TData = Record<string, unknown>> {
  type: string;
  /** The request id: CloudEvents subject, and the partition key unless `partitionKey` says otherwise. */
  subject: string;
  /**
   * The bus key when it is not the request id: task events are keyed by `<tenantId>:<systemKey>` so that one data
   * system's tasks stay in order on one partition (ADR 0038). The event's subject stays the request id.
   */
  partitionKey?: string;
  tenantId: string;
  data: TData;
  id?: string;
  time?: Date;
  traceparent?: string;
}

export class InvalidEventError extends Error {
  constructor(
    readonly eventType: string,
    readonly problems: string[],
  ) {
    super(`Event ${eventType} does not match its schema: ${problems.join('; ')}`);
    this.name = 'InvalidEventError';
  }
}

/** Builds a CloudEvent and checks its data against the catalog, so no invalid event reaches the outbox. */
export function buildEvent(catalog: EventCatalog, source: string, draft: EventDraft): CloudEventEnvelope {
  const definition = catalog.require(draft.type);
  const parsed = definition.schema.safeParse(draft.data);
  if (!parsed.success) {
    throw new InvalidEventError(
      draft.type,
      parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`),
    );
  }
  const envelope: CloudEventEnvelope = {
    specversion: '1.0',
    id: draft.id ?? randomUUID(),
    source,
    type: draft.type,
    subject: draft.subject,
    time: (draft.time ?? new Date()).toISOString(),
    datacontenttype: 'application/json',
    tenantid: draft.tenantId,
    data: parsed.data as Record<string, unknown>,
    ...(draft.traceparent ? { traceparent: draft.traceparent } : {}),
  };
  return cloudEventEnvelopeSchema.parse(envelope);
}

export function toBusMessage(topic: string, envelope: CloudEventEnvelope): BusMessage {
  return {
    topic,
    key: envelope.subject,
    value: JSON.stringify(envelope),
    headers: {
      [CloudEventHeaders.id]: envelope.id,
      [CloudEventHeaders.type]: envelope.type,
      [CloudEventHeaders.source]: envelope.source,
      [CloudEventHeaders.contentType]: CLOUDEVENTS_CONTENT_TYPE,
      ...(envelope.traceparent ? { [CloudEventHeaders.traceparent]: envelope.traceparent } : {}),
    },
  };
}

/** Parses a message value as a CloudEvent envelope; throws with the reason when it is not one. */
export function parseEnvelope(value: string): CloudEventEnvelope {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('message value is not JSON');
  }
  const parsed = cloudEventEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`not a CloudEvent: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
