import { type Admin, AssignerProtocol, Kafka, logLevel } from 'kafkajs';

/**
 * Where the consumer groups of a topic stand: the offset each has committed per partition against the topic's end.
 * A service's consumer commits an offset only after the transaction of every message before it has committed
 * (libs/platform/messaging/src/consumer-progress.ts), so a committed offset is progress that holds: what a restarted
 * consumer resumes from. It trails the handling by up to one commit interval (500 ms).
 */

/** The next offset to read, per partition. */
export type Offsets = Record<number, number>;

/** Offsets from kafkajs' answers; a group's `-1` (nothing committed) reads from the start, as the services' consumers do. */
export function offsetsOf(entries: readonly { partition: number; offset: string }[]): Offsets {
  return Object.fromEntries(entries.map((e) => [e.partition, Math.max(0, Number(e.offset))]));
}

/** Messages from `from` to `to`, over every partition of `to`. */
export function eventsBetween(from: Offsets, to: Offsets): number {
  let n = 0;
  for (const [partition, offset] of Object.entries(to)) n += Math.max(0, offset - (from[Number(partition)] ?? 0));
  return n;
}

/** Whether `committed` has reached `target` on every partition of `target`. */
export function reached(committed: Offsets, target: Offsets): boolean {
  return Object.entries(target).every(([partition, offset]) => (committed[Number(partition)] ?? 0) >= offset);
}

/** An admin client that reads one topic's end offsets and its consumer groups' committed offsets. */
export class TopicOffsets {
  private readonly admin: Admin;

  private constructor(
    brokers: string,
    readonly topic: string,
  ) {
    this.admin = new Kafka({ clientId: 'dsar-bench-offsets', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  }

  static async open(brokers: string, topic: string): Promise<TopicOffsets> {
    const t = new TopicOffsets(brokers, topic);
    await t.admin.connect();
    return t;
  }

  close(): Promise<void> {
    return this.admin.disconnect();
  }

  /** The groups whose name starts with `prefix` that have a member assigned a partition of the topic. */
  async groupsReading(prefix: string): Promise<string[]> {
    const ids = (await this.admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith(prefix));
    if (ids.length === 0) return [];
    const { groups } = await this.admin.describeGroups(ids);
    return groups
      .filter((g) => g.members.some((m) => Object.keys(AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {}).includes(this.topic)))
      .map((g) => g.groupId)
      .sort();
  }

  /** The end of the topic (or of another one, say its dead-letter twin): the offset the next message will take, per partition. */
  async end(topic = this.topic): Promise<Offsets> {
    return Object.fromEntries((await this.admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
  }

  async committed(groupId: string): Promise<Offsets> {
    const [topic] = await this.admin.fetchOffsets({ groupId, topics: [this.topic] });
    return offsetsOf(topic?.partitions ?? []);
  }
}
