import { Counter, Gauge, Histogram, register } from 'prom-client';

type BacklogProbe = () => Promise<{ count: number; oldestAgeSeconds: number }>;

/**
 * The product's Prometheus metrics. One registry per process; every series
 * carries the `service` label, so the embedded mode (eight services, one
 * process) and the distributed mode expose the same names.
 */
export class Metrics {
  private static singleton?: Metrics;
  private readonly backlogProbes = new Map<string, BacklogProbe>();

  readonly httpDuration = new Histogram({
    name: 'dsar_http_request_duration_seconds',
    help: 'HTTP request duration by service, method, route and status.',
    labelNames: ['service', 'method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  readonly outboxPublished = new Counter({
    name: 'dsar_outbox_published_total',
    help: 'Events the outbox relay published.',
    labelNames: ['service', 'topic'] as const,
  });

  readonly outboxPublishFailures = new Counter({
    name: 'dsar_outbox_publish_failures_total',
    help: 'Relay batches that failed to publish and stay in the outbox.',
    labelNames: ['service'] as const,
  });

  readonly consumerHandled = new Counter({
    name: 'dsar_consumer_handled_total',
    help: 'Events a consumer handled successfully.',
    labelNames: ['service', 'event_type'] as const,
  });

  readonly consumerDuplicates = new Counter({
    name: 'dsar_consumer_duplicates_total',
    help: 'Redelivered events the inbox dropped.',
    labelNames: ['service', 'event_type'] as const,
  });

  readonly consumerRetries = new Counter({
    name: 'dsar_consumer_retries_total',
    help: 'Handler attempts that failed and were retried.',
    labelNames: ['service', 'event_type'] as const,
  });

  readonly consumerDeadLettered = new Counter({
    name: 'dsar_consumer_dead_lettered_total',
    help: 'Events sent to a dead-letter topic.',
    labelNames: ['service', 'topic', 'reason'] as const,
  });

  readonly consumerGroupJoined = new Gauge({
    name: 'dsar_consumer_group_joined',
    help: 'Whether a consumer is a member of its group (1) or out of it: connecting, rejoining after a crash or a broker restart (0).',
    labelNames: ['service', 'group'] as const,
  });

  readonly consumerGroupJoins = new Counter({
    name: 'dsar_consumer_group_joins_total',
    help: 'Times a consumer joined its group (the first join and every rejoin after a rebalance, crash or broker restart).',
    labelNames: ['service', 'group'] as const,
  });

  readonly consumerLag = new Gauge({
    name: 'dsar_consumer_lag_messages',
    help: 'Messages of a partition not yet consumed, as of the last batch the consumer read from it.',
    labelNames: ['service', 'group', 'topic', 'partition'] as const,
  });

  readonly deadlineAlerts = new Counter({
    name: 'dsar_deadline_alerts_total',
    help: 'Deadline alerts the deadline monitor emitted.',
    labelNames: ['service', 'deadline', 'alert'] as const,
  });

  readonly retentionPurged = new Counter({
    name: 'dsar_retention_purged_total',
    help: 'Records the retention sweeps purged, by class (docs/retention.md).',
    labelNames: ['service', 'class'] as const,
  });

  readonly retentionSweepFailures = new Counter({
    name: 'dsar_retention_sweep_failures_total',
    help: 'Retention sweeps of one class and tenant that failed (the next sweep tries again).',
    labelNames: ['service', 'class'] as const,
  });

  readonly deadlineScanFailures = new Counter({
    name: 'dsar_deadline_scan_failures_total',
    help: 'Deadline monitor scans that failed (the next scan tries again).',
    labelNames: ['service'] as const,
  });

  readonly auditAppends = new Counter({
    name: 'dsar_audit_appends_total',
    help: 'Entries the audit ledger appended to request chains.',
    labelNames: ['event_type'] as const,
  });

  readonly auditCheckpoints = new Counter({
    name: 'dsar_audit_checkpoints_total',
    help: 'Signed audit checkpoints made.',
  });

  readonly auditCheckpointFailures = new Counter({
    name: 'dsar_audit_checkpoint_failures_total',
    help: 'Scheduled audit checkpoint runs that failed (the next run tries again).',
  });

  readonly periodicJobRuns = new Counter({
    name: 'dsar_periodic_job_runs_total',
    help: 'Runs of a periodic job (scheduled or called), finished or failed.',
    labelNames: ['service', 'job'] as const,
  });

  readonly periodicJobFailures = new Counter({
    name: 'dsar_periodic_job_failures_total',
    help: 'Runs of a periodic job that failed (a scheduled job runs again at its next interval).',
    labelNames: ['service', 'job'] as const,
  });

  readonly periodicJobDuration = new Histogram({
    name: 'dsar_periodic_job_duration_seconds',
    help: 'How long one run of a periodic job took.',
    labelNames: ['service', 'job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
  });

  private constructor() {
    const probes = this.backlogProbes;
    const readAll = async () => {
      const out: { service: string; count: number; oldestAgeSeconds: number }[] = [];
      for (const [service, probe] of probes) {
        try {
          out.push({ service, ...(await probe()) });
        } catch {
          // A database that does not answer shows as a missing sample, and in /health/ready.
        }
      }
      return out;
    };
    new Gauge({
      name: 'dsar_outbox_backlog',
      help: 'Events committed but not yet published.',
      labelNames: ['service'] as const,
      async collect() {
        this.reset();
        for (const s of await readAll()) this.set({ service: s.service }, s.count);
      },
    });
    new Gauge({
      name: 'dsar_outbox_oldest_age_seconds',
      help: 'Age of the oldest unpublished event.',
      labelNames: ['service'] as const,
      async collect() {
        this.reset();
        for (const s of await readAll()) this.set({ service: s.service }, s.oldestAgeSeconds);
      },
    });
  }

  static get(): Metrics {
    return (Metrics.singleton ??= new Metrics());
  }

  registerBacklogProbe(service: string, probe: BacklogProbe): void {
    this.backlogProbes.set(service, probe);
  }

  unregisterBacklogProbe(service: string): void {
    this.backlogProbes.delete(service);
  }

  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: register.contentType, body: await register.metrics() };
  }
}
