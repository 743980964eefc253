import { dlqTopicOf, domainEventCatalog, Topics } from '@dsar/contracts';
import { readTopicCatalog } from './topic-catalog';

/**
 * deploy/kafka/topics.yaml is what deployment creates and brokers never
 * auto-create topics: a topic the code uses but the file lacks fails in
 * production only. These checks keep the code and the file in step.
 */
describe('deploy/kafka/topics.yaml', () => {
  const fileTopics = readTopicCatalog();
  const names = new Set(fileTopics.map((t) => t.name));
  const topicValues: string[] = Object.values(Topics);

  it('parses, with partitions and a replication factor for every topic', () => {
    expect(fileTopics.length).toBeGreaterThan(0);
    for (const t of fileTopics) {
      expect(t.partitions).toBeGreaterThan(0);
      expect(t.replicationFactor).toBeGreaterThan(0);
    }
  });

  it.each(topicValues)('has Topics value %s and its .dlq twin', (topic) => {
    expect(names).toContain(topic);
    expect(names).toContain(dlqTopicOf(topic));
  });

  it.each(
    domainEventCatalog()
      .types()
      .map((d) => [d.type, d.topic]),
  )('has the topic of event type %s (%s) and its .dlq twin', (_type, topic) => {
    expect(names).toContain(topic);
    expect(names).toContain(dlqTopicOf(topic));
  });

  it('lists nothing but the Topics values and their .dlq twins', () => {
    const expected = new Set(topicValues.flatMap((t) => [t, dlqTopicOf(t)]));
    const unexpected = [...names].filter((n) => !expected.has(n));
    expect(unexpected).toEqual([]);
  });
});
