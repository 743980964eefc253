import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { domainEventCatalog, Topics } from '@dsar/contracts';
import { readTopicCatalog } from './topic-catalog';

/**
 * docs/events/asyncapi.yaml is what consumers of our topics read. It must
 * describe every event type of the catalog and every topic we create, and
 * nothing we no longer publish.
 */
const asyncapi = parse(readFileSync(path.resolve(__dirname, '../../../../docs/events/asyncapi.yaml'), 'utf8')) as {
  asyncapi: string;
  channels: Record<string, { address: string; messages?: Record<string, unknown> }>;
  components: { messages: Record<string, { name?: string }> };
};

describe('AsyncAPI document', () => {
  it('is AsyncAPI 3', () => {
    expect(asyncapi.asyncapi).toMatch(/^3\./);
  });

  it('has a channel for every topic of deploy/kafka/topics.yaml, and no other', () => {
    const addresses = Object.values(asyncapi.channels)
      .map((c) => c.address)
      .sort();
    expect(addresses).toEqual(
      readTopicCatalog()
        .map((t) => t.name)
        .sort(),
    );
  });

  it('describes every event type of the catalog as a message, on the channel of its topic', () => {
    const messageNames = Object.entries(asyncapi.components.messages).map(([key, m]) => m.name ?? key);
    for (const definition of domainEventCatalog().types()) {
      expect(messageNames).toContain(definition.type);
      const channel = Object.values(asyncapi.channels).find((c) => c.address === definition.topic);
      expect(channel).toBeDefined();
      expect(JSON.stringify(channel?.messages ?? {})).toContain(Object.entries(asyncapi.components.messages).find(([key, m]) => (m.name ?? key) === definition.type)?.[0]);
    }
  });

  it('lists no event type the catalog does not have', () => {
    const known = new Set(
      domainEventCatalog()
        .types()
        .map((d) => d.type),
    );
    const documented = Object.entries(asyncapi.components.messages)
      .map(([key, m]) => m.name ?? key)
      .filter((name) => name.startsWith('dsar.') && !Object.values(Topics).some((t) => name.startsWith(`${t}.dlq`)));
    for (const name of documented) expect(known.has(name)).toBe(true);
  });
});
