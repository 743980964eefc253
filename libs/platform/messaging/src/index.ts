export * from './bus.port';
export * from './memory-bus';
// The Kafka bus (and kafkajs) is its own entry, @dsar/platform/messaging/kafka: MessagingModule loads it only for BUS_DRIVER=kafka.
export * from './envelope';
export * from './outbox';
export * from './outbox-relay';
// The claim statement alone: its plan is checked on PostgreSQL (libs/platform/testing/src/outbox-relay.int-spec.ts).
export { claimStatement } from './outbox-claim';
export * from './bus-server';
export * from './messaging.migration';
export * from './topic-catalog';
export * from './messaging.module';
export * from './consumer-group';
