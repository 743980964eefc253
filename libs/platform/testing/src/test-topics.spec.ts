import { isStaleTestTopic, STALE_TEST_TOPIC_MS, testTopicPrefix } from './test-topics';

describe('test topics', () => {
  const now = Date.parse('2026-11-28T06:00:00Z');

  it('are stale once older than the bound, and never a product topic', () => {
    const fresh = `${testTopicPrefix(now - 60_000)}dsar.request.v1`;
    const old = `${testTopicPrefix(now - STALE_TEST_TOPIC_MS - 1000)}dsar.request.v1`;
    expect(fresh).toMatch(/^t[0-9a-z]+-[0-9a-f]{6}\.dsar\.request\.v1$/);
    expect(isStaleTestTopic(fresh, now)).toBe(false);
    expect(isStaleTestTopic(old, now)).toBe(true);
    // The names of older runs, without a time.
    expect(isStaleTestTopic('t0821efb9.dsar.notification.v1', now)).toBe(true);
    for (const topic of ['dsar.request.v1', 'dsar.request.v1.dlq', '__consumer_offsets', 'team.dsar.audit.v1', 'tenant-a.dsar.request.v1']) {
      expect(isStaleTestTopic(topic, now)).toBe(false);
    }
  });

  it('make a new prefix every time', () => {
    expect(testTopicPrefix(now)).not.toBe(testTopicPrefix(now));
  });
});
