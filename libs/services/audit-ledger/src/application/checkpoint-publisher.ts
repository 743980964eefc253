import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type AuditCheckpoint, type AuditCheckpointRun, AuditEventTypes, type AuditSigningKey } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { leafHash, merkleRoot } from '@dsar/platform/audit-chain';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { Metrics } from '@dsar/platform/observability';
import { UnitOfWork } from '@dsar/platform/persistence';
import { inBatches, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { CheckpointSigner } from '../domain/checkpoint-signature';
import type { SqlRunner } from '../infrastructure/audit-store';
import { Ledger } from './ledger';

export interface CheckpointSettings {
  /** How often checkpoints are made; 0 turns them off. */
  intervalMs: number;
  /** PEM of the Ed25519 private key; without one no checkpoint is made. */
  signingKeyPem?: string;
  /**
   * Chain heads per checkpoint; a tenant with more pending gets several, each linked to the one before. Each
   * checkpoint is one transaction, so this bounds how long one holds the database (ADR 0043).
   */
  maxLeaves: number;
}

export const CHECKPOINT_SETTINGS = Symbol('CHECKPOINT_SETTINGS');

/**
 * Makes the signed checkpoints: for each tenant whose chains grew since its
 * last checkpoint, the Merkle root over the new chain heads (by request id),
 * linked to the previous root and signed with the ledger's Ed25519 key. The
 * checkpoint, its leaves and its `dsar.audit.checkpoint_signed.v1` event
 * commit together; the tenant's row is locked meanwhile, so replicas never
 * make two checkpoints with one number. A backlog is worked off one
 * checkpoint (one short transaction) at a time, in batches that yield to the
 * requests (`inBatches`, ADR 0043).
 *
 * At start, once the ledger is up, a first run checkpoints each tenant whose
 * chains grew and whose newest checkpoint is missing or older than the
 * interval, so a restarted system does not wait an interval for one. A
 * caller can also ask for one (`checkpointTenant`).
 */
@Injectable()
export class CheckpointPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('CheckpointPublisher');
  private readonly signer?: CheckpointSigner;
  private readonly job: PeriodicJob<AuditCheckpoint[]>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    @Inject(CHECKPOINT_SETTINGS) private readonly settings: CheckpointSettings,
  ) {
    if (settings.signingKeyPem) this.signer = new CheckpointSigner(settings.signingKeyPem);
    this.job = new PeriodicJob(
      { service: 'audit-ledger', name: 'audit-checkpoint', intervalMs: settings.intervalMs, log: this.log, onFailure: () => Metrics.get().auditCheckpointFailures.inc() },
      (run) => this.runOnce(run),
    );
  }

  /** The id of the signing key, when one is configured. */
  get keyId(): string | undefined {
    return this.signer?.keyId;
  }

  /** The public key new checkpoints are signed with (none when checkpoints are off), for verifiers to trust. */
  keys(): AuditSigningKey[] {
    const signer = this.signer;
    return signer ? [{ keyId: signer.keyId, algorithm: 'ed25519', publicKey: signer.publicKeyPem, jwk: signer.publicKeyJwk }] : [];
  }

  /** The first run, in the background: a failure is logged and counted as a scheduled run's is, and the schedule goes on. */
  private startupRun?: Promise<unknown>;

  onApplicationBootstrap(): void {
    if (!this.signer) {
      if (this.settings.intervalMs > 0) this.log.warn('No AUDIT_SIGNING_KEY is configured: signed audit checkpoints are off (docs/audit.md#checkpoints).');
      return;
    }
    // The key id verifiers trust, named at every start (also when only checkpoints on demand are made).
    this.log.log({
      msg: `signing audit checkpoints with key ${this.signer.keyId}: give this key id to the tenants (GET /api/v1/audit/checkpoints/keys serves it)`,
      keyId: this.signer.keyId,
      intervalMs: this.settings.intervalMs,
    });
    if (this.settings.intervalMs <= 0) return;
    this.job.start();
    this.startupRun = this.job
      .runNow((run) => this.runOnce(run, { olderThanMs: this.settings.intervalMs }))
      .catch((e: unknown) => {
        // Stopped before it ran (a shutdown right after the start): nothing failed.
        if (!this.job.enabled) return [];
        this.log.error(`the first audit checkpoint run failed: ${String((e as Error)?.message ?? e).slice(0, 500)}`);
        Metrics.get().auditCheckpointFailures.inc();
        return [];
      });
  }

  /** The run at start, when there is one (tests wait for it). */
  whenStarted(): Promise<unknown> {
    return this.startupRun ?? Promise.resolve([]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Checkpoints every tenant with pending chain heads; returns the checkpoints made. Overlapping calls share one run. */
  run(): Promise<AuditCheckpoint[]> {
    return this.job.shareRun();
  }

  /**
   * A checkpoint of the tenant now, on a caller's demand: the checkpoints made
   * (none when its newest one already covers every chain head) and the newest.
   * Each checkpoint is a transaction of its own (the route records its answer
   * in one more). The tenant's row lock orders concurrent calls: each makes
   * checkpoints until none is pending, so both answer with the newest.
   */
  async checkpointTenant(tenantId: string): Promise<AuditCheckpointRun> {
    const signer = this.signer;
    if (!signer) throw new ProblemError('AUDIT_CHECKPOINTS_OFF', 'The audit ledger has no signing key (AUDIT_SIGNING_KEY), so it makes no signed checkpoints (docs/audit.md#checkpoints).');
    const made = await this.checkpointAll(signer, tenantId);
    const [latest] = await this.ledger.store.checkpoints(this.uow.manager, tenantId, 1);
    if (!latest) throw new ProblemError('AUDIT_NOTHING_TO_CHECKPOINT', 'This tenant has no audit chain yet: a checkpoint covers chain heads, so make one after the first request.');
    if (made.length > 0) this.log.log({ msg: 'audit checkpoint made on demand', tenantId, number: latest.number, leafCount: made.reduce((n, c) => n + c.leafCount, 0) });
    return { made, latest };
  }

  /** `olderThanMs`: only tenants whose newest checkpoint is missing or at least that old (the run at start). */
  private async runOnce(run: JobRun, opts: { olderThanMs?: number } = {}): Promise<AuditCheckpoint[]> {
    const signer = this.signer;
    if (!signer) throw new Error('No audit signing key is configured');
    const made: AuditCheckpoint[] = [];
    for (const tenantId of await this.ledger.store.tenantsWithPendingHeads(this.uow.dataSource)) {
      if (run.stopping) break;
      if (opts.olderThanMs !== undefined && !(await this.checkpointOlderThan(this.uow.dataSource, tenantId, opts.olderThanMs))) continue;
      made.push(...(await this.checkpointAll(signer, tenantId, () => run.stopping)));
    }
    return made;
  }

  /** Whether the tenant has no checkpoint, or its newest one is at least `ms` old. */
  private async checkpointOlderThan(run: SqlRunner, tenantId: string, ms: number): Promise<boolean> {
    const [latest] = await this.ledger.store.checkpoints(run, tenantId, 1);
    return !latest || this.clock.now().getTime() - new Date(latest.createdAt).getTime() >= ms;
  }

  /**
   * Checkpoints of every pending head of the tenant, several in a row when more than `maxLeaves` wait: each its
   * own transaction, with the event loop's turn between them. A stopping job leaves the rest to its next run.
   */
  private async checkpointAll(signer: CheckpointSigner, tenantId: string, stopping?: () => boolean): Promise<AuditCheckpoint[]> {
    const made: AuditCheckpoint[] = [];
    await inBatches(
      async () => {
        const checkpoint = await this.checkpointOnce(signer, tenantId);
        if (!checkpoint) return false;
        made.push(checkpoint);
        Metrics.get().auditCheckpoints.inc();
        return checkpoint.leafCount >= this.settings.maxLeaves;
      },
      { stopping },
    );
    return made;
  }

  private checkpointOnce(signer: CheckpointSigner, tenantId: string): Promise<AuditCheckpoint | undefined> {
    const store = this.ledger.store;
    return this.uow.run(async (tx) => {
      const state = await store.lockCheckpointTenant(tx, tenantId);
      const leaves = await store.pendingHeads(tx, tenantId, this.settings.maxLeaves);
      if (leaves.length === 0) return undefined;
      const statement = {
        algorithm: 'ed25519' as const,
        createdAt: this.clock.now().toISOString(),
        keyId: signer.keyId,
        leafCount: leaves.length,
        number: state.lastNumber + 1,
        previousRoot: state.lastRoot,
        root: merkleRoot(leaves.map(leafHash)),
        tenantId,
      };
      const checkpoint: AuditCheckpoint = { checkpointId: randomUUID(), ...statement, publicKey: signer.publicKeyPem, signature: signer.sign(statement) };
      await store.recordCheckpoint(tx, checkpoint, leaves);
      await this.outbox.record(tx, { type: AuditEventTypes.checkpointSigned, subject: tenantId, tenantId, data: checkpoint });
      return checkpoint;
    });
  }
}
