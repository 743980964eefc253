/** The prefix of consumer group ids when KAFKA_GROUP_PREFIX is not set: the topic prefix followed by `dsar`. */
export const DEFAULT_GROUP_PREFIX = 'dsar';

/**
 * The consumer group of a service: `<KAFKA_GROUP_PREFIX>.<service>`. Without a group prefix of its own, an environment's
 * groups carry its topic prefix (`staging.dsar.audit-ledger`): environments that share a cluster by their topic prefix
 * never share a group, where a member of the other environment would be handed partitions it does not read, or hold
 * every rebalance of the group until its session expired.
 */
export function consumerGroupId(bus: { topicPrefix?: string; groupPrefix?: string }, service: string): string {
  const prefix = bus.groupPrefix || `${bus.topicPrefix ?? ''}${DEFAULT_GROUP_PREFIX}`;
  return `${prefix}.${service}`;
}
