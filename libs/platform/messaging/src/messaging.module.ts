import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventCatalog } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { UnitOfWork } from '@dsar/platform/persistence';
import { READINESS_CHECKS, type ReadinessCheck } from '@dsar/platform/observability';
import { BUS_PORT, type BusPort } from './bus.port';
import { BusServer } from './bus-server';
import { MemoryBus } from './memory-bus';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { consumerGroupId } from './consumer-group';

export interface BusSettings {
  driver: 'kafka' | 'memory';
  brokers?: string;
  clientId: string;
  topicPrefix?: string;
  /** KAFKA_GROUP_PREFIX; see consumerGroupId for the default. */
  groupPrefix?: string;
  /** Consumer session timeout (KAFKA_SESSION_TIMEOUT_MS). */
  sessionTimeoutMs?: number;
}

export interface MessagingModuleOptions {
  service: string;
  schema: string;
  catalog: EventCatalog;
  bus: BusSettings;
  relay: { batchSize: number; pollIntervalMs: number; serializedSession: boolean };
  consumer: { maxAttempts: number; retryBackoffMs: number };
}

type LogFn = (level: 'error' | 'warn' | 'info' | 'debug', message: string, extra?: Record<string, unknown>) => void;

export function nestLog(context: string): LogFn {
  const logger = new Logger(context);
  return (level, message, extra) => {
    const line = extra ? { msg: message, ...extra } : message;
    if (level === 'info') logger.log(line);
    else logger[level](line);
  };
}

/** The bus of the settings; kafkajs is loaded only for the Kafka bus (embedded mode never loads it). */
export async function createBus(settings: BusSettings, service: string): Promise<BusPort> {
  if (settings.driver === 'memory') return MemoryBus.instance();
  const { KafkaBus } = await import('./kafka-bus');
  return new KafkaBus({
    brokers: (settings.brokers ?? '').split(','),
    clientId: `${settings.clientId}-${service}`,
    topicPrefix: settings.topicPrefix,
    sessionTimeoutMs: settings.sessionTimeoutMs,
    service,
    log: nestLog(`${service}:kafka`),
  });
}

@Injectable()
class MessagingShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(BUS_PORT) private readonly bus: BusPort,
    private readonly relay: OutboxRelay,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.bus.close();
  }
}

/**
 * Wires a service to the bus: its outbox writer, its relay (woken by every
 * commit of the service's unit of work) and its consumer transport.
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        { provide: BUS_PORT, useFactory: () => createBus(options.bus, options.service) },
        { provide: EventCatalog, useValue: options.catalog },
        {
          provide: Outbox,
          inject: [{ token: Clock, optional: true }],
          useFactory: (clock?: Clock) => new Outbox(options.catalog, `/dsar/${options.service}`, options.schema, clock),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, BUS_PORT, UnitOfWork],
          useFactory: (ds: DataSource, bus: BusPort, uow: UnitOfWork) => {
            const relay = new OutboxRelay(ds, bus, {
              service: options.service,
              schema: options.schema,
              batchSize: options.relay.batchSize,
              pollIntervalMs: options.relay.pollIntervalMs,
              serializedSession: options.relay.serializedSession,
              log: nestLog(`${options.service}:outbox-relay`),
            });
            uow.afterCommit(() => relay.wake());
            return relay;
          },
        },
        {
          provide: BusServer,
          inject: [BUS_PORT, UnitOfWork],
          useFactory: (bus: BusPort, uow: UnitOfWork) =>
            new BusServer(bus, options.catalog, uow, {
              service: options.service,
              groupId: consumerGroupId(options.bus, options.service),
              schema: options.schema,
              maxAttempts: options.consumer.maxAttempts,
              retryBackoffMs: options.consumer.retryBackoffMs,
              log: nestLog(`${options.service}:consumer`),
            }),
        },
        {
          provide: READINESS_CHECKS,
          inject: [DataSource, BUS_PORT],
          useFactory: (ds: DataSource, bus: BusPort): ReadinessCheck[] => [
            { name: 'database', check: async () => (await ds.query('SELECT 1 AS ok')).length === 1 },
            { name: 'bus', check: () => bus.isHealthy() },
          ],
        },
        MessagingShutdown,
      ],
      exports: [BUS_PORT, EventCatalog, Outbox, OutboxRelay, BusServer, READINESS_CHECKS],
    };
  }
}
