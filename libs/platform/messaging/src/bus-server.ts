import { setTimeout as sleep } from 'node:timers/promises';
import { type CustomTransportStrategy, BaseRpcContext, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import type { CloudEventEnvelope, EventCatalog } from '@dsar/contracts';
import { dlqTopicOf } from '@dsar/contracts';
import { isInfrastructureUnavailable } from '@dsar/platform/errors';
import { quoteIdent, type UnitOfWork } from '@dsar/platform/persistence';
import { Metrics, scrubText } from '@dsar/platform/observability';
import type { BusPort, InboundMessage, Subscription } from './bus.port';
import { parseEnvelope } from './envelope';

/** What an `@EventPattern` handler gets beside the event: the message it came in. */
export class BusContext extends BaseRpcContext<[InboundMessage, CloudEventEnvelope]> {
  get message(): InboundMessage {
    return this.args[0];
  }
  get envelope(): CloudEventEnvelope {
    return this.args[1];
  }
}

export interface BusServerOptions {
  service: string;
  /** Consumer group id, and the inbox's consumer name. */
  groupId: string;
  schema: string;
  maxAttempts: number;
  retryBackoffMs: number;
  log: (level: 'error' | 'warn' | 'info' | 'debug', message: string, extra?: Record<string, unknown>) => void;
}

type DeadLetterReason = 'invalid_envelope' | 'unknown_type' | 'invalid_payload' | 'handler_failed';

/** The longest pause between two tries of an event while its handler's database is unavailable. */
const OUTAGE_WAIT_MAX_MS = 5000;

/**
 * A NestJS microservice transport over the bus port. Handlers are plain
 * `@EventPattern('<event type>')` methods; this server subscribes the
 * service's consumer group to the topics of those types and, per message:
 * validates the envelope and the payload against the catalog, runs the
 * handler in one transaction together with an inbox row (so a redelivered
 * event has its effect once), retries a failing handler with exponential
 * backoff, and after the last attempt moves the message to the topic's DLQ
 * so the partition goes on with the next request's events. A failure because
 * the database cannot be reached spends no attempt: the event waits for it.
 */
export class BusServer extends Server implements CustomTransportStrategy {
  private subscription?: Subscription;
  private readonly inbox: string;
  private closing = false;

  constructor(
    private readonly bus: BusPort,
    private readonly catalog: EventCatalog,
    private readonly uow: UnitOfWork,
    private readonly options: BusServerOptions,
  ) {
    super();
    this.inbox = `${quoteIdent(options.schema)}.inbox`;
  }

  /** This service's consumer group; a service's other consumers (a dead-letter watch) take names after it. */
  get groupId(): string {
    return this.options.groupId;
  }

  /** The topics this service consumes, from its handlers' event types. */
  subscribedTopics(): string[] {
    const topics = new Set<string>();
    for (const pattern of this.messageHandlers.keys()) topics.add(this.catalog.require(pattern).topic);
    return [...topics].sort();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      const topics = this.subscribedTopics();
      if (topics.length > 0) {
        this.subscription = await this.bus.subscribe(this.options.groupId, topics, (m) => this.handleMessage(m));
        this.options.log('info', 'consuming', { groupId: this.options.groupId, topics });
      }
      callback();
    } catch (e) {
      callback(e);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.subscription?.close();
    this.subscription = undefined;
  }

  on(): void {
    // The bus reports its own errors through the logger; there is no event emitter to expose.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private async handleMessage(message: InboundMessage): Promise<void> {
    let envelope: CloudEventEnvelope;
    try {
      envelope = parseEnvelope(message.value);
    } catch (e) {
      return this.deadLetter(message, 'invalid_envelope', e as Error, 0);
    }
    const handler = this.messageHandlers.get(envelope.type);
    if (!handler) return; // a topic carries several types; this service handles some of them
    const definition = this.catalog.get(envelope.type);
    if (!definition) return this.deadLetter(message, 'unknown_type', new Error(`unknown type ${envelope.type}`), 0);
    const parsed = definition.schema.safeParse(envelope.data);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return this.deadLetter(message, 'invalid_payload', new Error(detail), 0);
    }
    const event = { ...envelope, data: parsed.data as Record<string, unknown> };
    const labels = { service: this.options.service, event_type: envelope.type };
    let lastError: Error = new Error('not attempted');
    let outageWaits = 0;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      try {
        const fresh = await this.uow.run(async (tx) => {
          const inserted: unknown[] = await tx.query(
            `INSERT INTO ${this.inbox} (consumer, event_id, event_type) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING event_id`,
            [this.options.groupId, envelope.id, envelope.type],
          );
          if (inserted.length === 0) return false;
          const result = await handler(event, new BusContext([message, envelope]));
          await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
          return true;
        });
        Metrics.get()[fresh ? 'consumerHandled' : 'consumerDuplicates'].inc(labels);
        return;
      } catch (e) {
        lastError = e instanceof Error ? e : new Error(String(e));
        if (isInfrastructureUnavailable(e)) {
          // The database is away, not the event at fault: wait for it without spending an attempt, so an outage
          // never sends good events to the dead-letter topic. The offset stays uncommitted meanwhile. On shutdown
          // the wait ends with the error, and the event is delivered again after the restart.
          if (this.closing) throw lastError;
          outageWaits++;
          if (outageWaits === 1 || outageWaits % 20 === 0) {
            this.options.log('warn', 'event handler waits: a dependency is unavailable', { eventId: envelope.id, eventType: envelope.type, waits: outageWaits, error: lastError.message });
          }
          Metrics.get().consumerRetries.inc(labels);
          await sleep(Math.min(this.options.retryBackoffMs * 2 ** Math.min(outageWaits - 1, 6), OUTAGE_WAIT_MAX_MS));
          attempt--;
          continue;
        }
        if (attempt < this.options.maxAttempts) {
          Metrics.get().consumerRetries.inc(labels);
          this.options.log('warn', 'event handler failed; retrying', {
            eventId: envelope.id,
            eventType: envelope.type,
            attempt,
            error: lastError.message,
          });
          await sleep(this.options.retryBackoffMs * 2 ** (attempt - 1));
        }
      }
    }
    return this.deadLetter(message, 'handler_failed', lastError, this.options.maxAttempts);
  }

  private async deadLetter(message: InboundMessage, reason: DeadLetterReason, error: Error, attempts: number): Promise<void> {
    const topic = dlqTopicOf(message.topic);
    this.options.log('error', 'event moved to the dead-letter topic', {
      topic,
      deadLetterReason: reason,
      error: error.message,
      key: message.key,
      eventId: message.headers['ce_id'],
    });
    await this.bus.publish([
      {
        topic,
        key: message.key,
        value: message.value,
        headers: {
          ...message.headers,
          'dlq-reason': reason,
          'dlq-error': scrubText(error.message).slice(0, 2000),
          'dlq-attempts': String(attempts),
          'dlq-consumer': this.options.groupId,
          'dlq-source-topic': message.topic,
          'dlq-source-partition': String(message.partition),
          'dlq-source-offset': message.offset,
          'dlq-failed-at': new Date().toISOString(),
        },
      },
    ]);
    Metrics.get().consumerDeadLettered.inc({ service: this.options.service, topic: message.topic, reason });
  }
}
