import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type AuditCheckpoint, AuditEventTypes } from '@dsar/contracts';
import { leafHash, merkleRoot } from '@dsar/platform/audit-chain';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { Metrics } from '@dsar/platform/observability';
import { UnitOfWork } from '@dsar/platform/persistence';
import { PeriodicJob } from '@dsar/platform/scheduling';
import { CheckpointSigner } from '../domain/checkpoint-signature';
import { Ledger } from './ledger';

export interface CheckpointSettings {
  /** How often checkpoints are made; 0 turns them off. */
  intervalMs: number;
  /** PEM of the Ed25519 private key; without one no checkpoint is made. */
  signingKeyPem?: string;
  /** Chain heads per checkpoint; a tenant with more pending gets several, each linked to the one before. */
  maxLeaves: number;
}

export const CHECKPOINT_SETTINGS = Symbol('CHECKPOINT_SETTINGS');

/**
 * Makes the signed checkpoints: for each tenant whose chains grew since its
 * last checkpoint, the Merkle root over the new chain heads (by request id),
 * linked to the previous root and signed with the ledger's Ed25519 key. The
 * checkpoint, its leaves and its `dsar.audit.checkpoint_signed.v1` event
 * commit together; the tenant's row is locked meanwhile, so replicas never
 * make two checkpoints with one number.
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
      () => this.runOnce(),
    );
  }

  /** The id of the signing key, when one is configured. */
  get keyId(): string | undefined {
    return this.signer?.keyId;
  }

  onApplicationBootstrap(): void {
    if (this.settings.intervalMs <= 0) return;
    if (!this.signer) {
      this.log.warn('No AUDIT_SIGNING_KEY is configured: signed audit checkpoints are off (docs/audit.md#checkpoints).');
      return;
    }
    this.log.log({ msg: 'signing audit checkpoints', keyId: this.signer.keyId, intervalMs: this.settings.intervalMs });
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Checkpoints every tenant with pending chain heads; returns the checkpoints made. Overlapping calls share one run. */
  run(): Promise<AuditCheckpoint[]> {
    return this.job.shareRun();
  }

  private async runOnce(): Promise<AuditCheckpoint[]> {
    const signer = this.signer;
    if (!signer) throw new Error('No audit signing key is configured');
    const made: AuditCheckpoint[] = [];
    for (const tenantId of await this.ledger.store.tenantsWithPendingHeads(this.uow.dataSource)) {
      for (;;) {
        const checkpoint = await this.checkpointTenant(signer, tenantId);
        if (!checkpoint) break;
        made.push(checkpoint);
        Metrics.get().auditCheckpoints.inc();
        if (checkpoint.leafCount < this.settings.maxLeaves) break;
      }
    }
    return made;
  }

  private checkpointTenant(signer: CheckpointSigner, tenantId: string): Promise<AuditCheckpoint | undefined> {
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
