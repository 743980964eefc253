import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { ensureTopics, readTopicCatalog } from '@dsar/platform/messaging';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../../..');

export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://dsar:dsar@127.0.0.1:5432/dsar';
}

export function kafkaBrokers(): string {
  return process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
}

/** A short random name part, so parallel and repeated runs never share state. */
export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

/** A fresh database on the real PostgreSQL server, dropped by `drop()`. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `dsar_t_${uniqueSuffix()}`;
  const admin = new Client({ connectionString: databaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new Client({ connectionString: databaseUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Creates every topic of `deploy/kafka/topics.yaml` under a fresh prefix; returns the prefix. */
export async function createTestTopics(): Promise<string> {
  const prefix = `t${uniqueSuffix()}.`;
  const kafka = new Kafka({ clientId: 'dsar-tests', brokers: kafkaBrokers().split(','), logLevel: logLevel.NOTHING });
  const topics = readTopicCatalog().map((t) => ({ ...t, name: prefix + t.name }));
  await ensureTopics(kafka.admin(), topics);
  return prefix;
}

/** Stops or starts the local Kafka broker (the project's own script), for outage tests. */
export async function kafkaBroker(action: 'stop' | 'start'): Promise<void> {
  await run('bash', [path.join(root, 'deploy/local/infra.sh'), `kafka-${action}`], { cwd: root, timeout: 120000 });
}

/** Stops or starts the local PostgreSQL server (the project's own script), for outage tests. */
export async function postgresServer(action: 'stop' | 'start'): Promise<void> {
  await run('bash', [path.join(root, 'deploy/local/infra.sh'), `pg-${action}`], { cwd: root, timeout: 120000 });
}
