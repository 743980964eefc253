import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull } from 'typeorm';
import {
  type ArtifactRecord,
  CLOSED_STATUSES,
  type CloudEventEnvelope,
  type FulfilmentCallbackCommand,
  FulfilmentEventTypes,
  allowedActionsOf,
  isUuid,
  type ManifestRecordedV1,
  type ManifestReviewedV1,
  type ManifestSystem,
  type ManifestValidateCommand,
  type ManifestView,
  type Principal,
  type RequestDetail,
  type RequestStatus,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { DataSystems } from '../../data-systems/application/data-systems';
import { DataSystemTaskEntity } from '../../tasks/infrastructure/data-system-task.entity';
import { fourEyesFor, mayReview, mergeCategories, staleReview } from '../domain/manifest-rules';
import { requireRequestType } from '../domain/request-type';
import { FULFILMENT_SETTINGS, type FulfilmentSettings } from '../fulfilment-settings';
import { ArtifactEntity, ArtifactVersionEntity } from '../infrastructure/artifact.entity';
import { ManifestChangeEntity, ManifestEntity } from '../infrastructure/manifest.entity';

const CLOSED: readonly RequestStatus[] = CLOSED_STATUSES;

/** A request open for changes to its manifest, and the fulfilments recorded for it when it was read. */
export interface OpenRequest {
  detail: RequestDetail;
  /** Fulfilments recorded before lifecycle-clock was asked: a change finding more was overtaken by a fulfilment. */
  round: number;
}

/**
 * The manifest of a request: its view, the fulfilment callback and the
 * review, and what every change of it shares. A change reads the request
 * from lifecycle-clock first (404 for another tenant's, 409 once it is
 * fulfilled, refused or closed) and then writes in one short transaction
 * that locks the request's manifest row: changes, reviews and the fulfilment
 * of a request take turns, and no transaction waits on another service.
 */
@Injectable()
export class Manifests {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly lifecycle: LifecycleClient,
    private readonly clock: Clock,
    @Inject(FULFILMENT_SETTINGS) private readonly settings: FulfilmentSettings,
    private readonly systems: DataSystems,
  ) {}

  /** The transaction the caller is in (an event handler's inbox transaction), else the data source: in embedded mode one database session serves every service, so a read must never wait outside the transaction that holds it. */
  get db(): EntityManager {
    return this.uow.manager;
  }

  /** The request, which must be open for its manifest to change (404 for another tenant's, 409 when closed). */
  async openRequest(principal: Principal, requestId: string, what: string): Promise<OpenRequest> {
    if (!isUuid(requestId)) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${requestId} does not exist.`);
    const round = (await this.db.getRepository(ManifestEntity).findOne({ where: { requestId }, select: { requestId: true, fulfilments: true } }))?.fulfilments ?? 0;
    const detail = await this.lifecycle.request(principal, requestId);
    if (CLOSED.includes(detail.status)) throw closedProblem(detail, what);
    // Before any file is stored: what a manifest holds depends on the right asked, which a request in triage has not named yet.
    requireRequestType(detail, what);
    return { detail, round };
  }

  /** The request's manifest row, locked for the transaction; made (version 0, no manifest yet) when the request has none. */
  async lock(tx: EntityManager, detail: RequestDetail): Promise<ManifestEntity> {
    const now = this.clock.now();
    await tx
      .createQueryBuilder()
      .insert()
      .into(ManifestEntity)
      .values({
        requestId: detail.id,
        tenantId: detail.tenantId,
        workspaceId: detail.workspaceId,
        requestType: requireRequestType(detail, 'its manifest'),
        version: 0,
        validationState: null,
        dataCategories: null,
        redactionsApplied: [],
        thirdPartyExclusions: [],
        supplementaryInfoInline: null,
        supplementaryInfoRef: null,
        changedBy: null,
        changedAt: null,
        review: null,
        fulfilmentClaimedUntil: null,
        pendingFulfilment: null,
        fulfilments: 0,
        fulfilledAt: null,
        fulfilledBy: null,
        fulfilledVersion: null,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    const row = await tx.findOne(ManifestEntity, { where: { requestId: detail.id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new Error(`the manifest row of ${detail.id} vanished`);
    return row;
  }

  /** Whether a fulfilment holds the request's manifest right now (its lease runs on the database's time, ADR 0019). */
  async fulfilmentUnderway(tx: EntityManager, requestId: string): Promise<boolean> {
    const rows: Array<{ claimed: boolean }> = await tx.query(
      `SELECT (fulfilment_claimed_until IS NOT NULL AND fulfilment_claimed_until > now()) AS claimed FROM ${qualifiedTable(this.uow.dataSource, 'fulfilment_manifests')} WHERE request_id = $1`,
      [requestId],
    );
    return rows[0]?.claimed === true;
  }

  /**
   * Refuses a change (409) while the request is being fulfilled, or when a fulfilment was recorded since the
   * request was read (the change would land after the request was answered). Call with the row locked.
   */
  async assertChangeable(tx: EntityManager, row: ManifestEntity, { detail, round }: OpenRequest, what: string): Promise<void> {
    if (row.fulfilments !== round) throw closedProblem({ ...detail, status: 'fulfilled' }, what);
    if (await this.fulfilmentUnderway(tx, row.requestId)) throw beingFulfilledProblem(detail, what);
  }

  /** A change of the artifacts or the manifest's fields: a new version, pending review, and an entry of the history. */
  async changed(
    tx: EntityManager,
    row: ManifestEntity,
    principal: Principal,
    change: 'artifact_uploaded' | 'artifact_replaced' | 'manifest_recorded',
    fields: Partial<ManifestEntity> = {},
  ): Promise<ManifestEntity> {
    const now = this.clock.now();
    Object.assign(row, fields, { version: row.version + 1, validationState: 'pending', changedBy: principal.id, changedAt: now, updatedAt: now });
    await tx.update(
      ManifestEntity,
      { requestId: row.requestId },
      {
        ...fields,
        version: row.version,
        validationState: row.validationState,
        changedBy: row.changedBy,
        changedAt: row.changedAt,
        updatedAt: row.updatedAt,
      },
    );
    await tx.insert(ManifestChangeEntity, { requestId: row.requestId, tenantId: row.tenantId, version: row.version, change, by: principal.id, at: now, validationState: 'pending' });
    return row;
  }

  /** The facts every fulfilment event carries. */
  facts(row: Pick<ManifestEntity, 'requestId' | 'tenantId' | 'workspaceId'>, actor: string, at: Date) {
    return { requestId: row.requestId, tenantId: row.tenantId, workspaceId: row.workspaceId, actor, occurredAt: at.toISOString() };
  }

  /** Records an event of the request (its timeline and audit chain) in the transaction. */
  record(tx: EntityManager, row: Pick<ManifestEntity, 'requestId' | 'tenantId'>, type: string, data: Record<string, unknown>): Promise<CloudEventEnvelope> {
    return this.outbox.record(tx, { type, subject: row.requestId, tenantId: row.tenantId, data });
  }

  /** The request's manifest as GET …/manifest answers it: metadata only; version 0 and empty lists while it has none (its systems still listed). */
  async view(tenantId: string, requestId: string): Promise<ManifestView> {
    const row = isUuid(requestId) ? await this.db.getRepository(ManifestEntity).findOne({ where: { tenantId, requestId } }) : null;
    const systems = isUuid(requestId) ? await this.systemsOf(tenantId, requestId) : [];
    if (!row || row.version === 0) {
      return {
        requestId,
        version: 0,
        artifacts: [],
        dataCategories: [],
        redactionsApplied: [],
        thirdPartyExclusions: [],
        validationState: null,
        supplementaryInfoInline: null,
        supplementaryInfoRef: null,
        review: null,
        history: [],
        systems,
      };
    }
    const [artifacts, versions, changes] = await Promise.all([
      this.db.getRepository(ArtifactEntity).find({ where: { tenantId, requestId }, order: { createdAt: 'ASC', id: 'ASC' } }),
      this.db.getRepository(ArtifactVersionEntity).find({ where: { tenantId, requestId }, order: { version: 'ASC' } }),
      this.db.getRepository(ManifestChangeEntity).find({ where: { requestId }, order: { seq: 'ASC' } }),
    ]);
    const records = artifacts.map((a) =>
      artifactRecordOf(
        a,
        versions.filter((v) => v.artifactId === a.id),
      ),
    );
    return {
      requestId,
      version: row.version,
      artifacts: records,
      dataCategories: row.dataCategories ?? mergeCategories(...artifacts.filter((a) => a.purgedAt === null).map((a) => a.dataCategories)),
      redactionsApplied: row.redactionsApplied,
      thirdPartyExclusions: row.thirdPartyExclusions,
      validationState: row.validationState,
      supplementaryInfoInline: row.supplementaryInfoInline,
      supplementaryInfoRef: row.supplementaryInfoRef,
      review: row.review ? { ...row.review, outdated: row.review.version !== row.version } : null,
      history: changes.map((c) => ({ version: c.version, change: c.change, by: c.by, at: c.at.toISOString(), validationState: c.validationState })),
      systems,
    };
  }

  /**
   * The data systems the request was sent to, one per task, by key: the task's state, answer, erasure confirmation
   * and files (held artifacts that name the task). A system deleted since keeps its last name.
   */
  private async systemsOf(tenantId: string, requestId: string): Promise<ManifestSystem[]> {
    const tasks = await this.db.getRepository(DataSystemTaskEntity).find({ where: { tenantId, requestId }, order: { systemKey: 'ASC', action: 'ASC' } });
    if (tasks.length === 0) return [];
    const files = await this.db.getRepository(ArtifactEntity).find({
      where: { tenantId, requestId, taskId: In(tasks.map((t) => t.id)), purgedAt: IsNull() },
      select: { id: true, taskId: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const names = new Map<string, string>();
    for (const key of new Set(tasks.map((t) => t.systemKey))) names.set(key, (await this.systems.get(tenantId, key, { includeDeleted: true }))?.displayName ?? key);
    return tasks.map((t) => ({
      systemKey: t.systemKey,
      displayName: names.get(t.systemKey) ?? t.systemKey,
      action: t.action,
      state: t.state,
      outcome: t.outcome?.outcome ?? null,
      erasure: t.outcome?.outcome === 'complete' ? (t.outcome.erasure ?? null) : null,
      artifactIds: files.filter((f) => f.taskId === t.id).map((f) => f.id),
      answeredAt: t.answeredAt?.toISOString() ?? null,
    }));
  }

  /**
   * An upstream system's report of what it produced: the uploaded artifacts it names get their data categories
   * (and titles), the manifest its fields; the manifest is pending review again. The request is not finalized.
   */
  async callback(principal: Principal, requestId: string, command: FulfilmentCallbackCommand): Promise<{ requestId: string; status: 'recorded' }> {
    const what = 'recording the manifest';
    const opened = await this.openRequest(principal, requestId, what);
    const { detail } = opened;
    const named = command.manifest.artifacts;
    const ids = [...new Set(named.map((a) => a.artifactId))];
    await this.assertKnown(principal.tenantId, requestId, ids);
    return this.uow.run(async (tx) => {
      const row = await this.lock(tx, detail);
      await this.assertChangeable(tx, row, opened, what);
      // Checked again under the lock: a purge may have come in between.
      await this.assertKnown(principal.tenantId, requestId, ids, tx);
      const now = this.clock.now();
      for (const a of named) {
        await tx.update(
          ArtifactEntity,
          { id: a.artifactId, requestId },
          {
            ...(a.dataCategories !== undefined ? { dataCategories: mergeCategories(a.dataCategories) } : {}),
            ...(a.title !== undefined ? { title: a.title } : {}),
            updatedAt: now,
            updatedBy: principal.id,
          },
        );
      }
      const m = command.manifest;
      const fields: Partial<ManifestEntity> = {
        ...(m.dataCategories !== undefined ? { dataCategories: mergeCategories(m.dataCategories) } : {}),
        ...(m.redactionsApplied !== undefined ? { redactionsApplied: m.redactionsApplied } : {}),
        ...(m.thirdPartyExclusions !== undefined ? { thirdPartyExclusions: m.thirdPartyExclusions } : {}),
        ...(m.supplementaryInfoInline !== undefined ? { supplementaryInfoInline: m.supplementaryInfoInline } : {}),
        ...(m.supplementaryInfoRef !== undefined ? { supplementaryInfoRef: m.supplementaryInfoRef } : {}),
      };
      await this.changed(tx, row, principal, 'manifest_recorded', fields);
      const held = await tx.find(ArtifactEntity, { where: { requestId, purgedAt: IsNull() }, select: { id: true, dataCategories: true } });
      const categories = row.dataCategories ?? mergeCategories(...held.map((a) => a.dataCategories));
      await this.record(tx, row, FulfilmentEventTypes.manifestRecorded, {
        ...this.facts(row, principal.id, now),
        manifestVersion: row.version,
        artifactCount: held.length,
        dataCategoryCount: categories.length,
        hasSupplementaryInfo: row.supplementaryInfoInline !== null || row.supplementaryInfoRef !== null,
      } satisfies ManifestRecordedV1);
      return { requestId, status: 'recorded' as const };
    });
  }

  /**
   * A reviewer's decision on the manifest version the reviewer read (`version`; default the current one): who,
   * when, on which version. A manifest that moved on since is a 409, so nothing unseen is approved. Under four eyes
   * (the tenant's setting) no author of the manifest may review it (403): see `authorsOf`.
   */
  async validate(principal: Principal, requestId: string, command: ManifestValidateCommand): Promise<{ id: string; status: 'approved' | 'rejected' }> {
    const what = 'reviewing the manifest';
    const opened = await this.openRequest(principal, requestId, what);
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(ManifestEntity, { where: { tenantId: principal.tenantId, requestId }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.version === 0) {
        throw new ProblemError('MANIFEST_NOT_FOUND', `Request ${requestId} has no manifest to review: upload its artifacts or record them with the fulfilment callback first.`);
      }
      await this.assertChangeable(tx, row, opened, what);
      const stale = staleReview(command.version, row.version);
      if (stale) {
        throw new ProblemError('MANIFEST_VERSION_CHANGED', `You reviewed version ${command.version}, but ${stale}: read the manifest again and review that.`, undefined, {
          manifestVersion: row.version,
        });
      }
      if (!mayReview(fourEyesFor(this.settings, row.tenantId), await this.authorsOf(tx, requestId), principal.id)) {
        throw new ProblemError('MANIFEST_REVIEW_FOUR_EYES', 'You uploaded, replaced or recorded part of this manifest: another reviewer must review it (four eyes).', undefined, {
          manifestVersion: row.version,
        });
      }
      const now = this.clock.now();
      const review = { action: command.action, by: principal.id, at: now.toISOString(), comment: command.comment ?? null, version: row.version };
      await tx.update(ManifestEntity, { requestId }, { validationState: command.action, review, updatedAt: now });
      await tx.insert(ManifestChangeEntity, { requestId, tenantId: row.tenantId, version: row.version, change: command.action, by: principal.id, at: now, validationState: command.action });
      await this.record(tx, row, FulfilmentEventTypes.manifestReviewed, {
        ...this.facts(row, principal.id, now),
        manifestVersion: row.version,
        validationState: command.action,
        hasComment: review.comment !== null,
      } satisfies ManifestReviewedV1);
      return { id: requestId, status: command.action };
    });
  }

  /**
   * Everyone who made the manifest's content, in every round of the request: the creators of every artifact
   * version (uploads and replacements, purged ones too) and the principals of every change in its history
   * (the callbacks as well). Read under the manifest row's lock, so no change slips in before the review.
   */
  private async authorsOf(tx: EntityManager, requestId: string): Promise<string[]> {
    const changes = qualifiedTable(this.uow.dataSource, 'fulfilment_manifest_changes');
    const versions = qualifiedTable(this.uow.dataSource, 'fulfilment_artifact_versions');
    const rows: Array<{ author: string }> = await tx.query(
      `SELECT changed_by AS author FROM ${changes} WHERE request_id = $1 AND change IN ('artifact_uploaded', 'artifact_replaced', 'manifest_recorded')
       UNION SELECT created_by FROM ${versions} WHERE request_id = $1`,
      [requestId],
    );
    return rows.map((r) => r.author);
  }

  /** Refuses (422) artifact ids that name no artifact of the request still held. */
  private async assertKnown(tenantId: string, requestId: string, ids: string[], tx: EntityManager = this.db): Promise<void> {
    if (ids.length === 0) return;
    const known = await tx.find(ArtifactEntity, { where: { tenantId, requestId, id: In(ids), purgedAt: IsNull() }, select: { id: true } });
    const unknown = ids.filter((id) => !known.some((k) => k.id === id));
    if (unknown.length > 0) {
      throw new ProblemError('FULFILMENT_ARTIFACT_UNKNOWN', `No artifact of this request was uploaded as ${unknown.join(', ')}: upload it first (POST …/manifest/artifact/upload).`, undefined, {
        artifactIds: unknown,
      });
    }
  }
}

/** An artifact with its versions, as the manifest lists it. */
export function artifactRecordOf(artifact: ArtifactEntity, versions: ArtifactVersionEntity[]): ArtifactRecord {
  const current = versions.find((v) => v.version === artifact.currentVersion);
  if (!current) throw new Error(`artifact ${artifact.id} has no version ${artifact.currentVersion}`);
  return {
    artifactId: artifact.id,
    artifactKey: current.artifactKey,
    filename: artifact.filename,
    versionFilename: current.filename,
    title: artifact.title,
    type: artifact.type,
    contentType: current.contentType,
    size: current.size,
    sha256: current.sha256,
    version: current.version,
    dataCategories: artifact.dataCategories,
    createdAt: artifact.createdAt.toISOString(),
    createdBy: artifact.createdBy,
    updatedAt: artifact.updatedAt.toISOString(),
    updatedBy: artifact.updatedBy,
    previousVersions: versions
      .filter((v) => v.version < artifact.currentVersion)
      .sort((a, b) => a.version - b.version)
      .map((v) => ({
        version: v.version,
        artifactKey: v.artifactKey,
        filename: v.filename,
        contentType: v.contentType,
        size: v.size,
        sha256: v.sha256,
        createdAt: v.createdAt.toISOString(),
        createdBy: v.createdBy,
        replacedAt: (v.replacedAt ?? v.createdAt).toISOString(),
        purged: v.purgedAt !== null,
      })),
    redactionsApplied: redactionsOf(versions),
    purgedAt: artifact.purgedAt?.toISOString() ?? null,
    systemKey: artifact.systemKey,
  };
}

/** Each replacement of an artifact's file, oldest first: the version it made, who, when, why, and what it replaced. */
function redactionsOf(versions: readonly ArtifactVersionEntity[]): ArtifactRecord['redactionsApplied'] {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  return sorted.flatMap((v, i) => (i === 0 ? [] : [{ version: v.version, by: v.createdBy, at: v.createdAt.toISOString(), reason: v.redactionReason, previousSha256: sorted[i - 1].sha256 }]));
}

/** The 409 of a change to the manifest of a request that is no longer open, naming what lifecycle-clock allows it. */
export function closedProblem(detail: RequestDetail, what: string): ProblemError {
  return new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `The request is ${detail.status}: ${what} is not allowed.`, undefined, {
    currentStatus: detail.status,
    allowedActions: allowedActionsOf(detail),
  });
}

/** The 409 of a change to the manifest while the request is being fulfilled (it is still in_progress). */
export function beingFulfilledProblem(detail: RequestDetail, what: string): ProblemError {
  return new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `The request is being fulfilled: ${what} is not allowed now.`, undefined, {
    currentStatus: detail.status,
    allowedActions: allowedActionsOf(detail),
  });
}
