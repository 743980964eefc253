/**
 * Topic names. One topic per bounded context, keyed by request id so that the
 * events of one request keep their order. `deploy/kafka/topics.yaml` holds their
 * partitions and retention; a test keeps the two in step.
 */
export const Topics = {
  intake: 'dsar.intake.v1',
  request: 'dsar.request.v1',
  verification: 'dsar.verification.v1',
  fulfilment: 'dsar.fulfilment.v1',
  delivery: 'dsar.delivery.v1',
  policy: 'dsar.policy.v1',
  notification: 'dsar.notification.v1',
  /** What the retention sweeps purged, keyed by request id (tenant-wide purges by `tenant:<id>`). */
  retention: 'dsar.retention.v1',
  /** The tasks of data systems, keyed by `<tenantId>:<systemKey>` (one system's tasks in order; ADR 0038). */
  task: 'dsar.task.v1',
  /** Signed checkpoints of the audit ledger, keyed by tenant id. */
  audit: 'dsar.audit.v1',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

export const DLQ_SUFFIX = '.dlq';

export function dlqTopicOf(topic: string): string {
  return `${topic}${DLQ_SUFFIX}`;
}
