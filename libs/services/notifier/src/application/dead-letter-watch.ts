import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { dlqTopicOf, isUuid, Topics } from '@dsar/contracts';
import { BUS_PORT, type BusPort, BusServer, type InboundMessage, type Subscription } from '@dsar/platform/messaging';
import { NOTIFIER_SETTINGS, type NotifierSettings } from '../notifier-settings';
import { Dispatcher } from './dispatcher';
import { Notifications } from './notifications';

/** What a parked message says about itself, read leniently: it may be the malformed message that was parked. */
function describe(message: InboundMessage): { tenantId?: string; subject?: string; eventType: string } {
  try {
    const envelope = JSON.parse(message.value) as { tenantid?: unknown; subject?: unknown; type?: unknown };
    return {
      tenantId: typeof envelope.tenantid === 'string' ? envelope.tenantid : undefined,
      subject: typeof envelope.subject === 'string' ? envelope.subject : undefined,
      eventType: typeof envelope.type === 'string' ? envelope.type : 'unknown',
    };
  } catch {
    return { eventType: 'unparseable' };
  }
}

/**
 * Tells operators of every message a consumer gave up on and parked in a
 * dead-letter topic: which topic, which type, why and which consumer, for
 * the tenant the message names. One alert per parked message (its topic,
 * partition and offset), whichever replica sees it.
 */
@Injectable()
export class DeadLetterWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('DeadLetterWatch');
  private subscription?: Subscription;

  constructor(
    @Inject(BUS_PORT) private readonly bus: BusPort,
    private readonly server: BusServer,
    private readonly notifications: Notifications,
    private readonly dispatcher: Dispatcher,
    @Inject(NOTIFIER_SETTINGS) private readonly settings: NotifierSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.settings.dispatchIntervalMs <= 0) return;
    const topics = Object.values(Topics).map(dlqTopicOf);
    this.subscription = await this.bus.subscribe(`${this.server.groupId}.dead-letters`, topics, (m) => this.onParked(m));
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  private async onParked(message: InboundMessage): Promise<void> {
    const { tenantId, subject, eventType } = describe(message);
    if (!tenantId) {
      this.log.warn(`a message without a tenant was parked in ${message.topic} (offset ${message.offset}); no tenant's operators to tell`);
      return;
    }
    const requestId = subject && isUuid(subject) ? subject : null;
    const id = await this.notifications.recordNow({
      tenantId,
      workspaceId: null,
      requestId,
      kind: 'message_parked',
      audience: 'operators',
      sourceKey: `dlq:${message.topic}:${message.partition}:${message.offset}`,
      sourceEventId: null,
      facts: {
        topic: message.topic,
        eventType,
        dlqReason: message.headers['dlq-reason'] ?? 'unknown',
        consumer: message.headers['dlq-consumer'] ?? 'unknown',
        ...(requestId ? { subject: requestId } : {}),
      },
    });
    if (id) this.dispatcher.kick();
  }
}
