import type { EntityManager } from 'typeorm';
import type { CloudEventEnvelope, EventCatalog } from '@dsar/contracts';
import { Clock, systemClock } from '@dsar/platform/clock';
import { quoteIdent } from '@dsar/platform/persistence';
import { buildEvent, type EventDraft, toBusMessage } from './envelope';

/**
 * Writes domain events into the service's outbox table, inside the caller's
 * transaction: the event exists exactly when the state change it describes
 * was committed. The relay publishes it afterwards.
 */
export class Outbox {
  private readonly table: string;

  constructor(
    private readonly catalog: EventCatalog,
    /** CloudEvents `source`, e.g. `/dsar/lifecycle-clock`. */
    private readonly source: string,
    schema: string,
    /** Stamps each event's `time` when its draft gives none. */
    private readonly clock: Clock = systemClock,
  ) {
    this.table = `${quoteIdent(schema)}.outbox`;
  }

  async record(tx: EntityManager, draft: EventDraft): Promise<CloudEventEnvelope> {
    const envelope = buildEvent(this.catalog, this.source, { ...draft, time: draft.time ?? this.clock.now() });
    await this.append(tx, envelope, draft.partitionKey);
    return envelope;
  }

  /** Appends an envelope that was built already (validated by `buildEvent`), keyed by its subject unless `partitionKey` is given. */
  async append(tx: EntityManager, envelope: CloudEventEnvelope, partitionKey: string = envelope.subject): Promise<void> {
    const topic = this.catalog.require(envelope.type).topic;
    const message = toBusMessage(topic, envelope);
    await tx.query(
      `INSERT INTO ${this.table} (event_id, event_type, topic, partition_key, tenant_id, envelope, headers)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
      [envelope.id, envelope.type, topic, partitionKey, envelope.tenantid, message.value, JSON.stringify(message.headers)],
    );
  }
}
