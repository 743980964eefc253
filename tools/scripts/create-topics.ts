import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { busFields, loadConfig } from '@dsar/platform/config';
import { ensureTopics, readTopicCatalog } from '@dsar/platform/messaging';

/** `npm run topics:create`: creates the topics of deploy/kafka/topics.yaml that are missing. */
const schema = z.object({
  KAFKA_BROKERS: busFields.KAFKA_BROKERS.unwrap(),
  KAFKA_TOPIC_PREFIX: busFields.KAFKA_TOPIC_PREFIX,
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().positive().optional(),
});

async function main(): Promise<void> {
  const config = loadConfig('topics:create', schema);
  const kafka = new Kafka({ clientId: 'dsar-topics', brokers: config.KAFKA_BROKERS.split(','), logLevel: logLevel.WARN });
  const topics = readTopicCatalog(undefined, config.KAFKA_REPLICATION_FACTOR).map((t) => ({
    ...t,
    name: config.KAFKA_TOPIC_PREFIX + t.name,
  }));
  const result = await ensureTopics(kafka.admin(), topics);
  process.stdout.write(`topics created: ${result.created.length ? result.created.join(', ') : 'none'}\n`);
  process.stdout.write(`topics already present: ${result.existing.length}\n`);
  if (result.mismatched.length > 0) {
    process.stderr.write(`topics that differ from deploy/kafka/topics.yaml:\n  ${result.mismatched.join('\n  ')}\n`);
    process.exit(1);
  }
}

main().catch((e) => {
  process.stderr.write(`topics:create failed: ${(e as Error).message}\n`);
  process.exit(1);
});
