import { setTimeout as sleep } from 'node:timers/promises';
import { type CustomTransportStrategy, BaseRpcContext, type MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import type { CloudEventEnvelope, EventCatalog } from '@dsar/contracts';
import { CloudEventHeaders, dlqTopicOf } from '@dsar/contracts';
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

/**
 * The extras of an `@EventPattern` whose handler takes the events of a batch together:
 * `@EventPattern(types, EVENTS_TOGETHER)`. It is called with an array, the consecutive events of the batch it handles,
 * in their order, in the batch's transaction (one event alone when the batch is taken again event by event), so that
 * it can read and write for all of them at once. Its context is that of the first of them.
 */
export const EVENTS_TOGETHER = { together: true } as const;

type DeadLetterReason = 'invalid_envelope' | 'unknown_type' | 'invalid_payload' | 'handler_failed';

/** An event this service handles, decoded and checked, with what it came in. */
interface Decoded {
  message: InboundMessage;
  envelope: CloudEventEnvelope;
  event: CloudEventEnvelope;
  /** The handler of its type that takes one event (Nest chains several of them into one). */
  handler?: MessageHandler;
  /** The handler of its type that takes events together (EVENTS_TOGETHER). */
  together?: MessageHandler;
}

/**
 * The most events handled in one transaction. A fetched batch larger than this is handled in parts: a part holds
 * its connection (embedded mode's only one) for the time of its handlers, and a failing part is taken again event
 * by event.
 */
export const CONSUMER_BATCH_MAX_EVENTS = 100;

/** The longest pause between two tries of an event while its handler's database is unavailable. */
const OUTAGE_WAIT_MAX_MS = 5000;

/**
 * A NestJS microservice transport over the bus port. Handlers are plain
 * `@EventPattern('<event type>')` methods; this server subscribes the
 * service's consumer group to the topics of those types and takes what the
 * bus hands over in batches (consecutive messages of one partition, ADR 0045):
 *
 * - a message whose `ce_type` header names a type this service does not
 *   handle is passed over without being decoded;
 * - the others are decoded and their envelope and payload checked against the
 *   catalog; one that fails goes to the topic's DLQ alone;
 * - the batch's events are handled in one transaction together with their
 *   inbox rows (so a redelivered event has its effect once), in order;
 * - when that transaction fails, the batch is taken again event by event, each
 *   in its own transaction: a failing handler is retried with exponential
 *   backoff and after the last attempt its event moves to the DLQ, so the
 *   partition goes on with the next request's events. A failure because the
 *   database cannot be reached spends no attempt: the event waits for it.
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

  /**
   * The handlers that take events together, by event type: kept apart from Nest's handlers, which Nest chains when a
   * type has several (all called with the same payload), so that they get arrays and the others single events.
   */
  private readonly together = new Map<string, MessageHandler>();

  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    if (extras.together !== true) return super.addHandler(pattern, callback, isEventHandler, extras);
    const type = this.normalizePattern(pattern as string);
    if (this.together.has(type)) throw new Error(`${type} has two handlers that take events together; one is allowed`);
    Object.assign(callback, { isEventHandler, extras });
    this.together.set(type, callback);
  }

  private handles(type: string): boolean {
    return this.messageHandlers.has(type) || this.together.has(type);
  }

  /** This service's consumer group; a service's other consumers (a dead-letter watch) take names after it. */
  get groupId(): string {
    return this.options.groupId;
  }

  /** The topics this service consumes, from its handlers' event types. */
  subscribedTopics(): string[] {
    const topics = new Set<string>();
    for (const pattern of [...this.messageHandlers.keys(), ...this.together.keys()]) topics.add(this.catalog.require(pattern).topic);
    return [...topics].sort();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      const topics = this.subscribedTopics();
      if (topics.length > 0) {
        this.subscription = await this.bus.subscribeBatches(this.options.groupId, topics, (batch) => this.handleBatch(batch), { maxMessages: CONSUMER_BATCH_MAX_EVENTS });
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

  private async handleBatch(messages: InboundMessage[]): Promise<void> {
    const decoded: Decoded[] = [];
    for (const message of messages) {
      const event = await this.decode(message);
      if (event) decoded.push(event);
    }
    if (decoded.length > 1 && (await this.handleTogether(decoded))) return;
    for (const event of decoded) await this.handleAlone(event);
  }

  /** The event of a message, checked, when this service handles it; a message that is not a valid event goes to the DLQ. */
  private async decode(message: InboundMessage): Promise<Decoded | undefined> {
    // A topic carries several types and this service handles some of them: the others are not even parsed.
    const announced = message.headers[CloudEventHeaders.type];
    if (announced !== undefined && !this.handles(announced)) return undefined;
    let envelope: CloudEventEnvelope;
    try {
      envelope = parseEnvelope(message.value);
    } catch (e) {
      await this.deadLetter(message, 'invalid_envelope', e as Error, 0);
      return undefined;
    }
    if (!this.handles(envelope.type)) return undefined;
    const definition = this.catalog.get(envelope.type);
    if (!definition) {
      await this.deadLetter(message, 'unknown_type', new Error(`unknown type ${envelope.type}`), 0);
      return undefined;
    }
    const parsed = definition.schema.safeParse(envelope.data);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      await this.deadLetter(message, 'invalid_payload', new Error(detail), 0);
      return undefined;
    }
    return { message, envelope, event: { ...envelope, data: parsed.data as Record<string, unknown> }, handler: this.messageHandlers.get(envelope.type), together: this.together.get(envelope.type) };
  }

  /**
   * The events in one transaction: their inbox rows in one statement, then the handlers of those not seen before, in
   * order. False when it failed (nothing of it is kept): the caller takes the events one by one.
   */
  private async handleTogether(events: Decoded[]): Promise<boolean> {
    let fresh: Set<string>;
    try {
      fresh = await this.uow.run(async (tx) => {
        const inserted: { event_id: string }[] = await tx.query(
          `INSERT INTO ${this.inbox} (consumer, event_id, event_type)
           SELECT $1, e.id, e.type FROM unnest($2::uuid[], $3::text[]) AS e(id, type)
           ON CONFLICT DO NOTHING RETURNING event_id`,
          [this.options.groupId, events.map((e) => e.envelope.id), events.map((e) => e.envelope.type)],
        );
        // A message the relay sent twice can be in the batch twice: its handler runs for the first.
        const unhandled = new Set(inserted.map((r) => r.event_id));
        const handled = new Set(unhandled);
        await this.runHandlers(events.filter((e) => unhandled.delete(e.envelope.id)));
        return handled;
      });
    } catch (e) {
      this.options.log('debug', 'a batch of events failed together; taking them one by one', { events: events.length, error: String((e as Error)?.message ?? e).slice(0, 300) });
      return false;
    }
    for (const e of events) {
      const labels = { service: this.options.service, event_type: e.envelope.type };
      Metrics.get()[fresh.delete(e.envelope.id) ? 'consumerHandled' : 'consumerDuplicates'].inc(labels);
    }
    return true;
  }

  /**
   * The handlers of the events, in their order: each event's handler of one event as it comes, and a handler that
   * takes events together once for each run of consecutive events it handles, when the run ends.
   */
  private async runHandlers(events: Decoded[]): Promise<void> {
    let run: Decoded[] = [];
    const endRun = async (): Promise<void> => {
      const [first] = run;
      if (first?.together)
        await this.call(
          first.together,
          run.map((e) => e.event),
          first,
        );
      run = [];
    };
    for (const e of events) {
      if (run.length > 0 && e.together !== run[0].together) await endRun();
      if (e.handler) await this.call(e.handler, e.event, e);
      if (e.together) run.push(e);
    }
    await endRun();
  }

  /** One call of a handler; its context is the message of `first`, the event it got or the first of them. */
  private async call(handler: MessageHandler, payload: CloudEventEnvelope | CloudEventEnvelope[], first: Decoded): Promise<void> {
    const result = await handler(payload, new BusContext([first.message, first.envelope]));
    await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }

  /** One event in its own transaction, with retries, waits while the database is away, and the DLQ after the last attempt. */
  private async handleAlone(decoded: Decoded): Promise<void> {
    const { message, envelope } = decoded;
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
          await this.runHandlers([decoded]);
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
