import type { ZodType } from 'zod';

/** What the bus needs to know about one event type. */
export interface EventTypeDefinition<TData = unknown> {
  readonly type: string;
  readonly topic: string;
  readonly schema: ZodType<TData>;
  /** The service that owns (and alone publishes) the event. */
  readonly producer: string;
  readonly description: string;
  /**
   * Top-level `data` fields that may hold personal data (free text written
   * by people). The audit ledger keeps them only as salted hashes.
   */
  readonly personalData?: readonly string[];
}

/**
 * A registry of event types. Producers validate `data` before the event reaches
 * the outbox and consumers validate on receipt; both look the schema up here.
 */
export class EventCatalog {
  private readonly byType = new Map<string, EventTypeDefinition>();

  constructor(definitions: Iterable<EventTypeDefinition> = []) {
    for (const d of definitions) this.register(d);
  }

  register<T>(definition: EventTypeDefinition<T>): this {
    if (this.byType.has(definition.type)) {
      throw new Error(`Event type ${definition.type} is registered twice`);
    }
    this.byType.set(definition.type, definition as EventTypeDefinition);
    return this;
  }

  get(type: string): EventTypeDefinition | undefined {
    return this.byType.get(type);
  }

  require(type: string): EventTypeDefinition {
    const d = this.byType.get(type);
    if (!d) throw new Error(`Unknown event type ${type}: add it to the event catalog in libs/contracts`);
    return d;
  }

  types(): EventTypeDefinition[] {
    return [...this.byType.values()];
  }

  topics(): string[] {
    return [...new Set(this.types().map((d) => d.topic))].sort();
  }

  /** A copy with more definitions: tests and extensions add types without touching the shared catalog. */
  extend(definitions: Iterable<EventTypeDefinition>): EventCatalog {
    return new EventCatalog([...this.types(), ...definitions]);
  }
}

/**
 * The public name of an event type, which the public logs show (the request's timeline, the delivery log): the
 * CloudEvents type without `dsar.` and its version, its parts joined with `_` (`dsar.delivery.prepared.v1` →
 * `delivery_prepared`). The CloudEvents type stays on Kafka, in the audit chain and its exports.
 */
export function publicEventType(type: string): string {
  return type
    .replace(/^dsar\./, '')
    .replace(/\.v\d+$/, '')
    .replace(/\./g, '_');
}

/** What a public event type looks like (`request_created`): lower-case words joined with `_`, never a CloudEvents type. */
export const PUBLIC_EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_]*$/;
