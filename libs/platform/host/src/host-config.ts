import { randomBytes } from 'node:crypto';

/** The settings a hosted service needs, whichever app or runner supplies them. */
export interface HostConfig {
  NODE_ENV: string;
  LOG_LEVEL: string;
  /** `pretty`: log lines for a person at a terminal; `json` (the default): pino's JSON lines. */
  LOG_FORMAT?: 'json' | 'pretty';
  HTTP_BODY_LIMIT: string;
  /** See tuneHeapGrowth; absent: V8's own choice. */
  HEAP_GROWING_PERCENT?: number;
  HOST: string;
  PORT: number;
  DB_DRIVER: 'postgres' | 'pglite';
  DATABASE_URL?: string;
  DATA_DIR: string;
  DB_POOL_SIZE: number;
  DB_MIGRATIONS?: 'run' | 'check';
  BUS_DRIVER: 'kafka' | 'memory';
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
  KAFKA_TOPIC_PREFIX: string;
  /** Consumer group prefix; the topic prefix followed by `dsar` when absent (consumerGroupId). */
  KAFKA_GROUP_PREFIX?: string;
  /** Consumer session timeout; the bus's default (10 s) when absent. */
  KAFKA_SESSION_TIMEOUT_MS?: number;
  OUTBOX_POLL_MS: number;
  OUTBOX_BATCH_SIZE: number;
  CONSUMER_MAX_ATTEMPTS: number;
  CONSUMER_RETRY_BACKOFF_MS: number;
  /** The key that signs and checks the caller's identity on internal calls (one of the two is required). */
  INTERNAL_AUTH_KEY?: string;
  INTERNAL_AUTH_KEY_FILE?: string;
}

/** The gateway has no database or bus: fill those settings with inert values. */
export function gatewayHostConfig(
  config: Pick<HostConfig, 'NODE_ENV' | 'LOG_LEVEL' | 'LOG_FORMAT' | 'HTTP_BODY_LIMIT' | 'HOST' | 'PORT' | 'INTERNAL_AUTH_KEY' | 'INTERNAL_AUTH_KEY_FILE'>,
): HostConfig {
  return {
    NODE_ENV: config.NODE_ENV,
    LOG_LEVEL: config.LOG_LEVEL,
    ...(config.LOG_FORMAT ? { LOG_FORMAT: config.LOG_FORMAT } : {}),
    HTTP_BODY_LIMIT: config.HTTP_BODY_LIMIT,
    HOST: config.HOST,
    PORT: config.PORT,
    INTERNAL_AUTH_KEY: config.INTERNAL_AUTH_KEY,
    INTERNAL_AUTH_KEY_FILE: config.INTERNAL_AUTH_KEY_FILE,
    DB_DRIVER: 'pglite',
    DATA_DIR: 'memory://',
    DB_POOL_SIZE: 1,
    BUS_DRIVER: 'memory',
    KAFKA_CLIENT_ID: 'dsar',
    KAFKA_TOPIC_PREFIX: '',
    OUTBOX_POLL_MS: 1000,
    OUTBOX_BATCH_SIZE: 1,
    CONSUMER_MAX_ATTEMPTS: 1,
    CONSUMER_RETRY_BACKOFF_MS: 1,
  };
}

/** The internal auth key of every quiet host of this process, so that they trust each other. */
const PROCESS_TEST_INTERNAL_AUTH_KEY = randomBytes(32).toString('base64url');

/** Settings for a quiet in-process host (tests and tools); PGlite in memory and the in-memory bus. */
export function quietHostConfig(overrides: Partial<HostConfig> = {}): HostConfig {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HTTP_BODY_LIMIT: '1mb',
    HOST: '127.0.0.1',
    PORT: 0,
    DB_DRIVER: 'pglite',
    DATA_DIR: 'memory://',
    DB_POOL_SIZE: 5,
    BUS_DRIVER: 'memory',
    KAFKA_CLIENT_ID: 'dsar-test',
    KAFKA_TOPIC_PREFIX: '',
    OUTBOX_POLL_MS: 500,
    OUTBOX_BATCH_SIZE: 100,
    CONSUMER_MAX_ATTEMPTS: 3,
    CONSUMER_RETRY_BACKOFF_MS: 20,
    INTERNAL_AUTH_KEY: PROCESS_TEST_INTERNAL_AUTH_KEY,
    ...overrides,
  };
}
