import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { S3Client } from '@aws-sdk/client-s3';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { ensureTopics, readTopicCatalog } from '@dsar/platform/messaging';
import { testTopicPrefix } from './test-topics';

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

/** A fresh database `<prefix>_<random>` on the real PostgreSQL server, dropped by `drop()` (safe to call again). */
export async function createTestDatabase(prefix = 'dsar_t'): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${uniqueSuffix()}`;
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
  const prefix = testTopicPrefix();
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

/** The S3-compatible server of the tests (moto, started by `deploy/local/infra.sh up` or `s3-start`). */
export function s3Endpoint(): string {
  return process.env.DSAR_TEST_S3_URL ?? 'http://127.0.0.1:9000';
}

/**
 * A fresh bucket on the test S3 server, with a client for it (path style, any credentials: moto accepts them);
 * `drop()` aborts its pending multipart uploads, empties it, removes it and closes the client.
 */
export async function createTestBucket(): Promise<{ bucket: string; endpoint: string; client: S3Client; drop: () => Promise<void> }> {
  // Loaded here, not at the top: most suites never touch S3.
  const s3 = await import('@aws-sdk/client-s3');
  const endpoint = s3Endpoint();
  const client = new s3.S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const bucket = `dsar-test-${uniqueSuffix()}`;
  await client.send(new s3.CreateBucketCommand({ Bucket: bucket }));
  const drop = async () => {
    try {
      const uploads = await client.send(new s3.ListMultipartUploadsCommand({ Bucket: bucket }));
      for (const u of uploads.Uploads ?? []) await client.send(new s3.AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
      let token: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key }));
        if (keys.length > 0) await client.send(new s3.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      await client.send(new s3.DeleteBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
  };
  return { bucket, endpoint, client, drop };
}
