import { randomUUID } from 'node:crypto';
import type { CloudEventEnvelope } from '@dsar/contracts';
import { type BusPort, type InboundMessage, parseEnvelope, type Subscription } from '@dsar/platform/messaging';
import { waitFor } from './wait-for';

/**
 * Listens on topics with a consumer group of its own and keeps what arrives,
 * so a test can wait for the event it expects (by predicate) with a deadline.
 */
export class EventProbe {
  readonly messages: InboundMessage[] = [];
  private subscription?: Subscription;

  private constructor(private readonly bus: BusPort) {}

  static async listen(bus: BusPort, topics: string[]): Promise<EventProbe> {
    const probe = new EventProbe(bus);
    probe.subscription = await bus.subscribe(`probe-${randomUUID()}`, topics, async (m) => {
      probe.messages.push(m);
    });
    return probe;
  }

  events(): CloudEventEnvelope[] {
    return this.messages.flatMap((m) => {
      try {
        return [parseEnvelope(m.value)];
      } catch {
        return [];
      }
    });
  }

  async waitForMessage(description: string, predicate: (m: InboundMessage) => boolean, timeoutMs = 30000): Promise<InboundMessage> {
    return waitFor(description, () => this.messages.find(predicate), { timeoutMs });
  }

  async waitForEvent(description: string, predicate: (e: CloudEventEnvelope) => boolean, timeoutMs = 30000): Promise<CloudEventEnvelope> {
    return waitFor(description, () => this.events().find(predicate), { timeoutMs });
  }

  async close(): Promise<void> {
    await this.subscription?.close();
  }
}
