import { consumerGroupId } from './consumer-group';

describe('consumerGroupId', () => {
  it('is dsar.<service> without any prefix', () => {
    expect(consumerGroupId({}, 'audit-ledger')).toBe('dsar.audit-ledger');
    expect(consumerGroupId({ topicPrefix: '', groupPrefix: '' }, 'audit-ledger')).toBe('dsar.audit-ledger');
  });

  it('carries the topic prefix when no group prefix is set, so that two environments on one cluster share no group', () => {
    const staging = consumerGroupId({ topicPrefix: 'staging.' }, 'audit-ledger');
    const production = consumerGroupId({ topicPrefix: 'production.' }, 'audit-ledger');
    expect([staging, production]).toEqual(['staging.dsar.audit-ledger', 'production.dsar.audit-ledger']);
  });

  it('takes KAFKA_GROUP_PREFIX as it is when set', () => {
    expect(consumerGroupId({ topicPrefix: 'staging.', groupPrefix: 'dsar-prod' }, 'notifier')).toBe('dsar-prod.notifier');
  });
});
