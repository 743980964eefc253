import { Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull } from 'typeorm';
import {
  actionOfRequestType,
  allowedActionsOf,
  type FulfilmentCommand,
  FulfilmentEventTypes,
  isUuid,
  type Principal,
  type RequestDetail,
  type RequestFulfilmentRecordedV1,
  type TasksOverriddenV1,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { Tasks } from '../../tasks/application/tasks';
import { DataSystemTaskEntity } from '../../tasks/infrastructure/data-system-task.entity';
import { fulfilmentBlocker, fulfilmentKey } from '../domain/manifest-rules';
import { requireRequestType } from '../domain/request-type';
import { overriddenTasks, taskGateRefusal } from '../domain/task-gate';
import { ArtifactEntity, ArtifactVersionEntity } from '../infrastructure/artifact.entity';
import { ManifestEntity, type PendingFulfilment } from '../infrastructure/manifest.entity';
import { Artifacts } from './artifacts';
import { Manifests } from './manifests';

/** How long one call holds a request's fulfilment before another may take it over (a crashed call's claim lapses). */
const FULFILMENT_LEASE_SECONDS = 60;

export interface FulfilmentResult {
  id: string;
  status: 'fulfilled';
  dueAt: string;
}

/**
 * The fulfilment of a request (ADR 0022's pattern): the manifest is checked
 * and the fulfilment noted under a short lease on the manifest row (a second
 * caller meanwhile is refused, 409), then lifecycle-clock moves the request
 * to `fulfilled` with a key derived from the manifest version and the
 * request's fulfilment round, so that a retry replays its answer; only then
 * is the fulfilment recorded, with its event, and the replaced versions of
 * the artifacts purged. No transaction is open during the call. When the
 * caller dies after lifecycle-clock's answer, the request's
 * `dsar.request.fulfilled.v1` (RequestFulfilledHandler), or the next call,
 * records the noted fulfilment.
 */
@Injectable()
export class Fulfilments {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly manifests: Manifests,
    private readonly artifacts: Artifacts,
    private readonly lifecycle: LifecycleClient,
    private readonly clock: Clock,
    private readonly tasks: Tasks,
  ) {}

  /**
   * Fulfils the request (see the class). The request's data-system tasks gate it first: refused while a required
   * one is open (409 FULFILMENT_TASKS_OPEN), and for an erasure while a required system has not proven it (409
   * ERASURE_NOT_CONFIRMED), unless `command.override.reason` is given: it is noted with the fulfilment and recorded
   * with it (dsar.fulfilment.tasks_overridden.v1).
   */
  async fulfil(principal: Principal, requestId: string, command: FulfilmentCommand = {}): Promise<FulfilmentResult> {
    if (!isUuid(requestId)) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${requestId} does not exist.`);
    const detail = await this.lifecycle.request(principal, requestId);
    if (detail.status !== 'in_progress') {
      // lifecycle-clock fulfilled the request for a call that died before recording it: record that fulfilment now.
      if (detail.status === 'fulfilled' && (await this.takeOver(requestId)) && (await this.record(detail.tenantId, requestId))) {
        return { id: requestId, status: 'fulfilled', dueAt: detail.dueAt };
      }
      throw disallowed(detail);
    }
    // Before anything is claimed: a request without a type (in triage) has nothing to fulfil yet.
    requireRequestType(detail, 'its fulfilment');
    const noted = await this.claim(principal, detail, command);
    let dueAt: string;
    try {
      dueAt = (await this.lifecycle.transition(principal, requestId, 'fulfilled', fulfilmentKey(requestId, noted.manifestVersion, noted.round))).dueAt;
    } catch (e) {
      await this.release(requestId, e);
      throw e;
    }
    await this.record(detail.tenantId, requestId);
    return { id: requestId, status: 'fulfilled', dueAt };
  }

  /**
   * Records the fulfilment noted for the request, once: the replaced versions' bytes are deleted, then, in one
   * transaction, the fulfilment, the versions marked purged and `fulfilment_recorded`. Returns whether this
   * call recorded it. Called by the fulfilling caller and, from the request's event, by RequestFulfilledHandler.
   */
  async record(tenantId: string, requestId: string): Promise<boolean> {
    const noted = await this.noted(requestId);
    if (!noted) return false;
    const deleted = await this.artifacts.deleteReplaced(tenantId, requestId);
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(ManifestEntity, { where: { requestId }, lock: { mode: 'pessimistic_write' } });
      const pending = row?.pendingFulfilment;
      if (!row || !pending || pending.round <= row.fulfilments) return false;
      const now = this.clock.now();
      if (deleted.length > 0) await tx.update(ArtifactVersionEntity, { artifactKey: In(deleted), purgedAt: IsNull() }, { purgedAt: now });
      await tx.update(
        ManifestEntity,
        { requestId },
        {
          fulfilments: pending.round,
          fulfilledAt: now,
          fulfilledBy: pending.by,
          fulfilledVersion: pending.manifestVersion,
          pendingFulfilment: null,
          fulfilmentClaimedUntil: null,
          updatedAt: now,
        },
      );
      const artifactCount = pending.manifestVersion === 0 ? 0 : await tx.count(ArtifactEntity, { where: { requestId, purgedAt: IsNull() } });
      await this.manifests.record(tx, row, FulfilmentEventTypes.fulfilmentRecorded, {
        ...this.manifests.facts(row, pending.by, now),
        manifestVersion: pending.manifestVersion,
        artifactCount,
        purgedVersions: deleted.length,
      } satisfies RequestFulfilmentRecordedV1);
      if (pending.override) {
        await this.manifests.record(tx, row, FulfilmentEventTypes.tasksOverridden, {
          ...this.manifests.facts(row, pending.by, now),
          openTasks: pending.override.openTasks,
          reason: pending.override.reason,
        } satisfies TasksOverriddenV1);
      }
      return true;
    });
  }

  /** The fulfilment noted for the request and not recorded yet, if any. */
  private async noted(requestId: string): Promise<PendingFulfilment | null> {
    const row = await this.manifests.db.getRepository(ManifestEntity).findOne({ where: { requestId } });
    return row?.pendingFulfilment && row.pendingFulfilment.round > row.fulfilments ? row.pendingFulfilment : null;
  }

  /**
   * Checks the tasks and the manifest and notes the fulfilment under a lease, in one transaction: refused while
   * another call holds it (409), while the tasks gate it (409, see `fulfil`; the tasks come first, as the files they
   * answer with feed the manifest) or while the manifest is not approved (409 FULFILMENT_MANIFEST_NOT_APPROVED).
   */
  private claim(principal: Principal, detail: RequestDetail, command: FulfilmentCommand): Promise<PendingFulfilment> {
    return this.uow.run(async (tx) => {
      const row = await this.manifests.lock(tx, detail);
      if (await this.manifests.fulfilmentUnderway(tx, row.requestId)) throw disallowed(detail, 'another fulfilment of it is under way');
      const override = await this.gate(tx, detail, command);
      const blocker = fulfilmentBlocker({ requestType: requireRequestType(detail, 'its fulfilment'), manifestVersion: row.version, validationState: row.validationState });
      if (blocker) {
        throw new ProblemError('FULFILMENT_MANIFEST_NOT_APPROVED', `The request cannot be fulfilled: ${blocker}.`, undefined, { manifestVersion: row.version, validationState: row.validationState });
      }
      const noted: PendingFulfilment = { by: principal.id, manifestVersion: row.version, round: row.fulfilments + 1, ...(override ? { override } : {}) };
      await tx
        .createQueryBuilder()
        .update(ManifestEntity)
        .set({ pendingFulfilment: noted, fulfilmentClaimedUntil: () => `now() + interval '${FULFILMENT_LEASE_SECONDS} seconds'` })
        .where('request_id = :id', { id: row.requestId })
        .execute();
      return noted;
    });
  }

  /**
   * The tasks' gate (see `fulfil`): throws its refusal, or, with an override, answers what the override goes past
   * (undefined when nothing was in the way: an override of nothing is not recorded).
   */
  private async gate(tx: EntityManager, detail: RequestDetail, command: FulfilmentCommand): Promise<PendingFulfilment['override']> {
    const action = actionOfRequestType(requireRequestType(detail, 'its fulfilment'));
    const open = await this.tasks.openRequired(tx, detail.id);
    const all = action === 'erasure' ? await tx.find(DataSystemTaskEntity, { where: { requestId: detail.id }, order: { systemKey: 'ASC' } }) : [];
    const refusal = taskGateRefusal(action, open, all);
    if (!refusal) return undefined;
    if (command.override) return { reason: command.override.reason, openTasks: overriddenTasks(action, open, all) };
    const names = refusal.tasks.map((t) => `${t.systemKey} (${t.state})`).join(', ');
    if (refusal.code === 'FULFILMENT_TASKS_OPEN') {
      throw new ProblemError(
        'FULFILMENT_TASKS_OPEN',
        `The request cannot be fulfilled while required data systems have not answered: ${names}. Settle their tasks, or fulfil with override.reason.`,
        undefined,
        { openTasks: refusal.tasks },
      );
    }
    throw new ProblemError(
      'ERASURE_NOT_CONFIRMED',
      `The erasure request cannot be fulfilled without every required system's confirmation, not-found or skip: ${names}. Settle their tasks, or fulfil with override.reason.`,
      undefined,
      { unconfirmed: refusal.tasks },
    );
  }

  /**
   * Takes over a noted fulfilment whose caller is gone (its lease lapsed): true when this call may record it,
   * false while another call holds it or when nothing is noted.
   */
  private takeOver(requestId: string): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const result = await tx
        .createQueryBuilder()
        .update(ManifestEntity)
        .set({ fulfilmentClaimedUntil: () => `now() + interval '${FULFILMENT_LEASE_SECONDS} seconds'` })
        .where(`request_id = :id AND pending_fulfilment IS NOT NULL AND (fulfilment_claimed_until IS NULL OR fulfilment_claimed_until <= now())`, { id: requestId })
        .execute();
      return (result.affected ?? 0) > 0;
    });
  }

  /**
   * Ends a claim whose call to lifecycle-clock failed. When lifecycle-clock refused (a 4xx: the request moved
   * meanwhile) nothing happened and the note goes too; otherwise (a 5xx, a timeout: the request may have
   * moved) the note stays, for the request's event or the next call to record.
   */
  private async release(requestId: string, cause: unknown): Promise<void> {
    const refused = cause instanceof ProblemError && cause.status < 500;
    await this.uow.run((tx) => tx.update(ManifestEntity, { requestId }, { fulfilmentClaimedUntil: null, ...(refused ? { pendingFulfilment: null } : {}) })).catch(() => undefined);
  }
}

function disallowed(detail: RequestDetail, why = `it is ${detail.status}`): ProblemError {
  return new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `fulfil is not allowed: ${why}.`, undefined, { currentStatus: detail.status, action: 'fulfil', allowedActions: allowedActionsOf(detail) });
}
