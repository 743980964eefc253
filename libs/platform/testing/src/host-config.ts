import { type HostConfig, quietHostConfig } from '@dsar/platform/host';

/** A complete host configuration for tests, quiet by default. */
export { quietHostConfig as testHostConfig };

/** Settings for a service on the real PostgreSQL database and Kafka topics a test created. */
export function distributedTestConfig(databaseUrl: string, topicPrefix: string, overrides: Partial<HostConfig> = {}): HostConfig {
  return quietHostConfig({
    DB_DRIVER: 'postgres',
    DATABASE_URL: databaseUrl,
    DB_MIGRATIONS: 'run',
    BUS_DRIVER: 'kafka',
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    KAFKA_TOPIC_PREFIX: topicPrefix,
    ...overrides,
  });
}
