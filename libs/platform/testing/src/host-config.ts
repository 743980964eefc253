import type { HostConfig } from '@dsar/platform/host';

/** A complete host configuration for tests, quiet by default. */
export function testHostConfig(overrides: Partial<HostConfig> = {}): HostConfig {
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
    KAFKA_GROUP_PREFIX: 'dsar',
    OUTBOX_POLL_MS: 500,
    OUTBOX_BATCH_SIZE: 100,
    CONSUMER_MAX_ATTEMPTS: 3,
    CONSUMER_RETRY_BACKOFF_MS: 20,
    ...overrides,
  };
}
