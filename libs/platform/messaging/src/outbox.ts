import type { EntityManager } from 'typeorm';
import type { CloudEventEnvelope, EventCatalog } from '@dsar/contracts';
import { Clock, systemClock } from '@dsar/platform/clock';
import { quoteIdent, type SqlWrite } from '@dsar/platform/persistence';
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
    const envelope = this.envelopeOf(draft);
    await this.append(tx, envelope, draft.partitionKey);
    return envelope;
  }

  /** The envelope of a draft (validated by `buildEvent`, its `time` stamped unless given), not yet written: `insertOf` writes it. */
  envelopeOf(draft: EventDraft): CloudEventEnvelope {
    return buildEvent(this.catalog, this.source, { ...draft, time: draft.time ?? this.clock.now() });
  }

  /** Appends an envelope that was built already (validated by `buildEvent`), keyed by its subject unless `partitionKey` is given. */
  async append(tx: EntityManager, envelope: CloudEventEnvelope, partitionKey?: string): Promise<void> {
    const insert = this.insertOf([{ envelope, partitionKey }]);
    await tx.query(insert.sql, [...insert.params]);
  }

  /**
   * The INSERT of built envelopes, each keyed by its subject unless it gives a `partitionKey`, as one statement to send
   * in the caller's transaction, alone (`append`) or with its other writes (`UnitOfWork.defer`). The rows take their
   * ids in the order given, which is the order the relay publishes a key's events in.
   */
  insertOf(entries: ReadonlyArray<{ envelope: CloudEventEnvelope; partitionKey?: string }>): SqlWrite {
    const params: unknown[] = [];
    const rows = entries.map(({ envelope, partitionKey }) => {
      const topic = this.catalog.require(envelope.type).topic;
      const message = toBusMessage(topic, envelope);
      const at = params.length;
      params.push(envelope.id, envelope.type, topic, partitionKey ?? envelope.subject, envelope.tenantid, message.value, JSON.stringify(message.headers));
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}::jsonb, $${at + 7}::jsonb)`;
    });
    return { sql: `INSERT INTO ${this.table} (event_id, event_type, topic, partition_key, tenant_id, envelope, headers) VALUES ${rows.join(', ')}`, params };
  }
}
