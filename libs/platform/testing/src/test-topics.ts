import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';

/**
 * The names of the topics the tests make: `t<creation time, seconds, base 36>-<6 hex>.` before each catalog name, so
 * that a later run can tell the topics of a finished run (the tests never delete theirs: a test file's services may
 * still be consuming when its suite ends). Older runs named them `t<8 hex>.`, without a time.
 */
const TEST_TOPIC = /^t([0-9a-z]+)-[0-9a-f]{6}\./;
const OLD_TEST_TOPIC = /^t[0-9a-f]{8}\./;

/** Test topics older than this are left over from a finished run: no test file runs this long. */
export const STALE_TEST_TOPIC_MS = 3 * 60 * 60 * 1000;

/** A fresh prefix for one test file's topics, stamped with `now`. */
export function testTopicPrefix(now = Date.now()): string {
  return `t${Math.floor(now / 1000).toString(36)}-${randomBytes(3).toString('hex')}.`;
}

/** Whether `topic` is a test topic made more than STALE_TEST_TOPIC_MS before `now` (or one without a time). */
export function isStaleTestTopic(topic: string, now = Date.now()): boolean {
  if (OLD_TEST_TOPIC.test(topic)) return true;
  const stamped = TEST_TOPIC.exec(topic);
  return stamped !== null && parseInt(stamped[1], 36) * 1000 < now - STALE_TEST_TOPIC_MS;
}

/**
 * Deletes the test topics that earlier runs left on the local broker. They only grow otherwise: after some thousand
 * runs' worth (19,325 partitions) the broker took 105 s to load them when a resilience test restarted it, and the
 * test failed on its time bound. Returns how many were deleted.
 */
export async function deleteStaleTestTopics(brokers: string, now = Date.now()): Promise<number> {
  const admin = new Kafka({ clientId: 'dsar-tests-cleanup', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const stale = (await admin.listTopics()).filter((topic) => isStaleTestTopic(topic, now));
    for (let i = 0; i < stale.length; i += 200) await admin.deleteTopics({ topics: stale.slice(i, i + 200), timeout: 60_000 });
    return stale.length;
  } finally {
    await admin.disconnect();
  }
}
