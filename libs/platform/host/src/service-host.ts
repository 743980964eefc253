import type { AddressInfo } from 'node:net';
import { type DynamicModule, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { Logger as PinoLogger, LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { domainEventCatalog, type EventCatalog } from '@dsar/contracts';
import { type Clock, ClockModule } from '@dsar/platform/clock';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { internalAuthKeyFrom } from '@dsar/platform/config';
import { INTERNAL_AUTH, InternalAuthKey, internalIdentity, requestContext, serveInProcess, strictJsonBody, UPSTREAM_URLS, type UpstreamUrls } from '@dsar/platform/http';
import { IdempotencyModule } from '@dsar/platform/idempotency';
import { BusServer, MessagingModule, OutboxRelay } from '@dsar/platform/messaging';
import { HealthController, loggerParams, prettyLogDestination, ReadinessRegistry } from '@dsar/platform/observability';
import { PersistenceModule, schemaNameFor } from '@dsar/platform/persistence';
import type { HostConfig } from './host-config';
import { httpMetrics } from './http-metrics';
import { middlewareChain } from './middleware-chain';
import { refuseLongRequestTargets } from './request-target';
import { tuneHeapGrowth } from './main-runner';

import { type ServiceDefinition, serviceMigrations } from './service-definition';

export interface HostOptions {
  /** Event types known to the service; the product's catalog unless a test extends it. */
  catalog?: EventCatalog;
  /** Extra modules (tests add handlers or probes). */
  imports?: (DynamicModule | (new () => unknown))[];
  /** Whether the process handles SIGTERM itself (false when a runner hosts several services). */
  shutdownHooks?: boolean;
  /** The `service` of log lines; a runner hosting several services names itself. */
  logName?: string;
  /** Internal URLs of the services the definition `calls`. */
  upstreams?: UpstreamUrls;
  /** Where log lines go instead of stdout (tests capture them). In one process the first service's logger serves all. */
  logDestination?: DestinationStream;
  /** The time the service's domain reads; the system clock unless a test controls it. */
  clock?: Clock;
  /**
   * Whether the other services of this process call this one in memory rather than over its port (`serveInProcess`,
   * ADR 0032): set by a runner hosting several services in one process.
   */
  inProcess?: boolean;
}

/** A running service: its Nest app, its address, and the switches the runner turns in order. */
export interface HostedService {
  readonly name: string;
  readonly app: INestApplication;
  readonly url: string;
  /** Joins the consumer group(s) of the service's event handlers. */
  startConsuming(): Promise<void>;
  /** Starts the outbox relay (after every consumer of the process is listening). */
  startPublishing(): void;
  close(): Promise<void>;
}

@Module({ controllers: [HealthController], providers: [ReadinessRegistry], exports: [ReadinessRegistry] })
class HealthModule {}

/** The key that signs and checks internal identity; without one a service does not start. */
export function internalAuthKeyOf(config: HostConfig): InternalAuthKey {
  const text = internalAuthKeyFrom(config);
  if (!text) throw new Error("INTERNAL_AUTH_KEY (or INTERNAL_AUTH_KEY_FILE) is required: the key that signs the caller's identity between the services");
  return InternalAuthKey.from(text);
}

/**
 * Provides the URLs of the services a service calls (a missing one stops the
 * start-up) and the internal auth key its calls are signed with.
 */
function upstreamsModule(definition: ServiceDefinition, upstreams: UpstreamUrls, key: InternalAuthKey): DynamicModule {
  const missing = (definition.calls ?? []).filter((s) => !upstreams[s]);
  if (missing.length > 0) throw new Error(`${definition.name} needs the URL of ${missing.join(', ')}`);
  @Module({})
  class UpstreamsModule {}
  return {
    module: UpstreamsModule,
    global: true,
    providers: [
      { provide: UPSTREAM_URLS, useValue: upstreams },
      { provide: INTERNAL_AUTH, useValue: key },
    ],
    exports: [UPSTREAM_URLS, INTERNAL_AUTH],
  };
}

export function rootModuleFor(definition: ServiceDefinition, config: HostConfig, options: HostOptions = {}): DynamicModule {
  const schema = schemaNameFor(definition.name);
  const imports: DynamicModule['imports'] = [
    LoggerModule.forRoot(loggerParams(options.logName ?? definition.name, config.LOG_LEVEL, options.logDestination ?? (config.LOG_FORMAT === 'pretty' ? prettyLogDestination() : undefined))),
    ClockModule.forRoot(options.clock),
  ];
  if (definition.persistence) {
    imports.push(
      PersistenceModule.forRoot({
        settings: {
          driver: config.DB_DRIVER,
          url: config.DATABASE_URL,
          dataDir: config.DATA_DIR,
          poolSize: config.DB_POOL_SIZE,
          schema,
          entities: definition.entities ?? [],
          migrations: serviceMigrations(definition),
          applicationName: `dsar-${definition.name}`,
        },
        migrations: config.DB_MIGRATIONS ?? (config.DB_DRIVER === 'pglite' ? 'run' : 'check'),
      }),
      MessagingModule.forRoot({
        service: definition.name,
        schema,
        catalog: options.catalog ?? domainEventCatalog(),
        bus: {
          driver: config.BUS_DRIVER,
          brokers: config.KAFKA_BROKERS,
          clientId: config.KAFKA_CLIENT_ID,
          topicPrefix: config.KAFKA_TOPIC_PREFIX,
          groupPrefix: config.KAFKA_GROUP_PREFIX,
          sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
        },
        relay: {
          batchSize: config.OUTBOX_BATCH_SIZE,
          pollIntervalMs: config.OUTBOX_POLL_MS,
          serializedSession: config.DB_DRIVER === 'pglite',
        },
        consumer: { maxAttempts: config.CONSUMER_MAX_ATTEMPTS, retryBackoffMs: config.CONSUMER_RETRY_BACKOFF_MS },
      }),
      IdempotencyModule.forRoot({ schema }),
    );
  }
  imports.push(upstreamsModule(definition, options.upstreams ?? {}, internalAuthKeyOf(config)), HealthModule, definition.module, ...(options.imports ?? []));
  @Module({})
  class ServiceRootModule {}
  Object.defineProperty(ServiceRootModule, 'name', { value: `${definition.name}-root` });
  return { module: ServiceRootModule, imports };
}

/**
 * Builds and starts one service: HTTP first (health answers while the rest
 * comes up), then, when the caller says so, consumers and the relay.
 */
export async function hostService(definition: ServiceDefinition, config: HostConfig, options: HostOptions = {}): Promise<HostedService> {
  const app = await NestFactory.create(rootModuleFor(definition, config, options), {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(app.get(PinoLogger));
  // Nothing in an answer names the framework.
  (app.getHttpAdapter().getInstance() as { disable(setting: string): void }).disable('x-powered-by');
  const key = app.get<InternalAuthKey>(INTERNAL_AUTH);
  app.use(
    middlewareChain([
      httpMetrics(definition.name),
      // Before anything reads the target: routing, the path checks and the log line each handle at most this much.
      refuseLongRequestTargets(),
      // Identity headers count only when signed with the shared key: checked before any handler, refused where the principal is read (ADR 0020).
      ...(definition.edge ? [] : [internalIdentity(key)]),
      ...(definition.readsOwnBodies ? [] : [strictJsonBody(config.HTTP_BODY_LIMIT)]),
      // Once per request, after the identity check it reads: its id, trace context and caller go on with every internal call.
      requestContext(definition.edge ? undefined : key),
    ]),
  );
  app.useGlobalFilters(new ProblemJsonFilter());
  definition.configure?.(app);
  if (options.shutdownHooks) app.enableShutdownHooks();

  let busServer: BusServer | undefined;
  let relay: OutboxRelay | undefined;
  if (definition.persistence) {
    const server = app.get(BusServer);
    busServer = server;
    relay = app.get(OutboxRelay);
    app.connectMicroservice<MicroserviceOptions>({ strategy: server }, { inheritAppConfig: true });
  }
  if (definition.edge || definition.takesUploads) (app.getHttpServer() as { requestTimeout: number }).requestTimeout = 0;
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host}:${address.port}`;
  const withdraw = options.inProcess ? serveInProcess(url, app.getHttpServer()) : undefined;
  return {
    name: definition.name,
    app,
    url,
    startConsuming: async () => {
      if (busServer) await app.startAllMicroservices();
    },
    startPublishing: () => relay?.start(),
    close: () => {
      withdraw?.();
      return app.close();
    },
  };
}

/** The whole start-up of a single-service process (distributed mode). */
export async function runService(definition: ServiceDefinition, config: HostConfig, options: Pick<HostOptions, 'upstreams'> = {}): Promise<HostedService> {
  tuneHeapGrowth(config.HEAP_GROWING_PERCENT);
  const hosted = await hostService(definition, config, { ...options, shutdownHooks: true });
  await hosted.startConsuming();
  hosted.startPublishing();
  return hosted;
}
