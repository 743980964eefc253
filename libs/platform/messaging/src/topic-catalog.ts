import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Admin } from 'kafkajs';
import { parse } from 'yaml';
import { z } from 'zod';

const topicSpec = z.object({
  partitions: z.number().int().positive(),
  replicationFactor: z.number().int().positive().optional(),
  config: z.record(z.string(), z.string()).default({}),
});

const topicsFile = z.object({
  defaults: z.object({
    replicationFactor: z.number().int().positive(),
    config: z.record(z.string(), z.string()).default({}),
  }),
  topics: z.record(z.string().regex(/^[a-z0-9._-]+$/), topicSpec),
});

export interface TopicDefinition {
  name: string;
  partitions: number;
  replicationFactor: number;
  config: Record<string, string>;
}

/** `deploy/kafka/topics.yaml`, found from the repository root. */
export function defaultTopicsFile(): string {
  return path.resolve(__dirname, '../../../../deploy/kafka/topics.yaml');
}

export function readTopicCatalog(file = defaultTopicsFile(), replicationFactor?: number): TopicDefinition[] {
  const parsed = topicsFile.parse(parse(readFileSync(file, 'utf8')));
  return Object.entries(parsed.topics).map(([name, t]) => ({
    name,
    partitions: t.partitions,
    replicationFactor: replicationFactor ?? t.replicationFactor ?? parsed.defaults.replicationFactor,
    config: { ...parsed.defaults.config, ...t.config },
  }));
}

/**
 * Creates the topics that are missing; never changes existing ones (a
 * partition count that differs is reported, since changing it would move
 * keys between partitions and break per-request order).
 */
export async function ensureTopics(admin: Admin, topics: TopicDefinition[]): Promise<{ created: string[]; existing: string[]; mismatched: string[] }> {
  await admin.connect();
  try {
    const present = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !present.has(t.name));
    if (missing.length > 0) {
      await admin.createTopics({
        // kafkajs's own wait gives up on the first UNKNOWN_TOPIC_OR_PARTITION a
        // freshly started broker answers while the topic propagates; wait here instead.
        waitForLeaders: false,
        topics: missing.map((t) => ({
          topic: t.name,
          numPartitions: t.partitions,
          replicationFactor: t.replicationFactor,
          configEntries: Object.entries(t.config).map(([name, value]) => ({ name, value })),
        })),
      });
      await waitForLeaders(
        admin,
        missing.map((t) => t.name),
      );
    }
    const existing = topics.filter((t) => present.has(t.name));
    const mismatched: string[] = [];
    if (existing.length > 0) {
      const meta = await admin.fetchTopicMetadata({ topics: existing.map((t) => t.name) });
      for (const m of meta.topics) {
        const want = existing.find((t) => t.name === m.name);
        if (want && m.partitions.length !== want.partitions) mismatched.push(`${m.name}: ${m.partitions.length} partitions, file says ${want.partitions}`);
      }
    }
    return { created: missing.map((t) => t.name), existing: existing.map((t) => t.name), mismatched };
  } finally {
    await admin.disconnect();
  }
}

/** Waits until every partition of the topics has a leader; metadata errors of a topic still propagating are retried. */
async function waitForLeaders(admin: Admin, names: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      const meta = await admin.fetchTopicMetadata({ topics: names });
      if (meta.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
    }
    if (Date.now() >= deadline) throw new Error(`Topics ${names.join(', ')} have no leader after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, delay));
  }
}
