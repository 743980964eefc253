import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type EntityManager, In, IsNull, Not } from 'typeorm';
import {
  ARTIFACT_TYPES,
  ARTIFACT_UPLOAD_HEADERS,
  type ArtifactDownloadQuery,
  CONTENT_SHA256_HEADER,
  type ArtifactReplacedV1,
  type ArtifactsPurgedV1,
  type ArtifactType,
  type ArtifactUploadedV1,
  FulfilmentEventTypes,
  isUuid,
  type Principal,
  type RequestDetail,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type ByteRange, FileStorage, type GetResult, safeFilename } from '@dsar/platform/storage';
import { artifactContentTypeOf, artifactTitleOf, artifactTypeOf, redactionReasonOf } from '../domain/manifest-rules';
import { FULFILMENT_SETTINGS, type FulfilmentSettings } from '../fulfilment-settings';
import { ArtifactEntity, ArtifactVersionEntity } from '../infrastructure/artifact.entity';
import { ManifestEntity } from '../infrastructure/manifest.entity';
import { beingFulfilledProblem, Manifests } from './manifests';
import { type ArtifactWriteCode, emptyUpload, storageReadProblem, storageWriteProblem, tooLarge } from './storage-problems';

/** The headers of an upload or a replacement as the client sent them. */
export interface ArtifactUploadHeaders {
  filename?: string;
  contentType?: string;
  title?: string;
  type?: string;
  /** A replacement's only: why the file was replaced (`x-artifact-redaction-reason`). */
  redactionReason?: string;
  contentLength?: string;
}

/** What the headers declare, checked: title and type are absent for a replacement that keeps them. */
interface Declared {
  filename: string;
  contentType: string;
  title?: string;
  type?: ArtifactType;
  /** A replacement's reason; null for an upload, or when none was given. */
  redactionReason: string | null;
}

/** What an upload answers besides the manifest: a data-system task (a connector's access file or rows). */
export interface ArtifactSource {
  task?: {
    taskId: string;
    systemKey: string;
    /** Run in the recording transaction, after the manifest row's lock: throws when the task no longer takes files. */
    check: (tx: EntityManager) => Promise<void>;
  };
  /** The sha256 (hex) the client declared (`x-content-sha256`): other bytes are refused and deleted. */
  expectedSha256?: string;
  /** The artifact's data categories (a task's rows of one category); none otherwise, until the callback names them. */
  dataCategories?: string[];
}

/** An artifact version's bytes to stream to a reviewer. */
export interface ArtifactDownload extends GetResult {
  file: ArtifactVersionEntity;
}

const HEADER = ARTIFACT_UPLOAD_HEADERS;

/**
 * The files of a manifest: uploads and replacements streamed into encrypted
 * storage (never held whole in memory), the downloads reviewers make, and
 * the purges: of replaced versions at fulfilment, and of every version of a
 * request (retention class `fulfilment_artifact`). Bytes are stored before
 * their record and deleted again when the record fails, so no file outlives
 * its record.
 */
@Injectable()
export class Artifacts {
  private readonly log = new Logger('Artifacts');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly manifests: Manifests,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
    @Inject(FULFILMENT_SETTINGS) private readonly settings: FulfilmentSettings,
  ) {}

  /** Stores an uploaded file as a new artifact of the request's manifest, which is pending review again. */
  async upload(principal: Principal, requestId: string, headers: ArtifactUploadHeaders, body: Readable): Promise<{ artifactId: string; artifactKey: string; requestId: string }> {
    const { artifactId, artifactKey } = await this.uploadFile(principal, requestId, headers, body);
    return { artifactId, artifactKey, requestId };
  }

  /**
   * The upload of `upload`, for a data-system task's answer as well (`of`): the artifact is tagged with the task and
   * its system, the task is checked again in the recording transaction, and bytes whose sha256 differs from the one
   * declared are refused (422 TASK_ANSWER_INVALID) and deleted. Returns what was stored.
   */
  async uploadFile(
    principal: Principal,
    requestId: string,
    headers: ArtifactUploadHeaders,
    body: Readable,
    of: ArtifactSource = {},
  ): Promise<{ artifactId: string; artifactKey: string; size: number; sha256: string }> {
    const code = 'MANIFEST_ARTIFACT_UPLOAD_FAILED';
    const declared = this.declared(headers, true);
    this.checkLength(headers.contentLength, code);
    const what = 'uploading an artifact';
    const opened = await this.manifests.openRequest(principal, requestId, what);
    const { detail } = opened;
    await this.refuseWhileFulfilling(detail, what);
    const artifactKey = newArtifactKey();
    const storageKey = storageKeyOf(requestId, artifactKey);
    const stored = await this.store(principal.tenantId, storageKey, body, code);
    try {
      if (of.expectedSha256 !== undefined && of.expectedSha256 !== stored.sha256) {
        throw new ProblemError('TASK_ANSWER_INVALID', `The file's bytes do not match its ${CONTENT_SHA256_HEADER} (their sha256 is ${stored.sha256}): nothing was kept.`, undefined, {
          sha256: stored.sha256,
        });
      }
      return await this.uow.run(async (tx) => {
        const row = await this.manifests.lock(tx, detail);
        await this.manifests.assertChangeable(tx, row, opened, what);
        await of.task?.check(tx);
        const now = this.clock.now();
        const artifact = tx.create(ArtifactEntity, {
          id: randomUUID(),
          tenantId: row.tenantId,
          requestId,
          title: declared.title ?? declared.filename,
          filename: declared.filename,
          type: declared.type ?? 'other',
          dataCategories: of.dataCategories ?? [],
          currentVersion: 1,
          createdAt: now,
          createdBy: principal.id,
          updatedAt: now,
          updatedBy: principal.id,
          purgedAt: null,
          systemKey: of.task?.systemKey ?? null,
          taskId: of.task?.taskId ?? null,
        });
        await tx.insert(ArtifactEntity, artifact);
        const version = await this.insertVersion(tx, principal, artifact, 1, artifactKey, storageKey, declared, stored, now);
        await this.manifests.changed(tx, row, principal, 'artifact_uploaded');
        await this.manifests.record(tx, row, FulfilmentEventTypes.artifactUploaded, {
          ...this.manifests.facts(row, principal.id, now),
          ...versionFacts(artifact, version),
          manifestVersion: row.version,
        } satisfies ArtifactUploadedV1);
        return { artifactId: artifact.id, artifactKey, size: stored.size, sha256: stored.sha256 };
      });
    } catch (e) {
      // Not recorded: the bytes must not outlive their record.
      await this.storage.delete(principal.tenantId, storageKey).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Replaces an artifact's file (a redacted version, say): same id and display name, a new version with a new key
   * and hash, recorded with who replaced it, when and why (the version's redaction reason). The replaced version is
   * kept for review until the request is fulfilled, then purged.
   */
  async replace(
    principal: Principal,
    requestId: string,
    artifactId: string,
    headers: ArtifactUploadHeaders,
    body: Readable,
  ): Promise<{ artifactId: string; artifactKey: string; replaced: true; requestId: string }> {
    const code = 'MANIFEST_ARTIFACT_REPLACE_FAILED';
    const declared = this.declared(headers, false);
    this.checkLength(headers.contentLength, code);
    const what = 'replacing an artifact';
    const opened = await this.manifests.openRequest(principal, requestId, what);
    const { detail } = opened;
    if (!isUuid(artifactId) || !(await this.manifests.db.getRepository(ArtifactEntity).exists({ where: { id: artifactId, tenantId: principal.tenantId, requestId, purgedAt: IsNull() } }))) {
      throw unknownArtifact(artifactId, requestId);
    }
    await this.refuseWhileFulfilling(detail, what);
    const artifactKey = newArtifactKey();
    const storageKey = storageKeyOf(requestId, artifactKey);
    const stored = await this.store(principal.tenantId, storageKey, body, code);
    try {
      return await this.uow.run(async (tx) => {
        const row = await this.manifests.lock(tx, detail);
        await this.manifests.assertChangeable(tx, row, opened, what);
        const artifact = await tx.findOne(ArtifactEntity, { where: { id: artifactId, requestId, purgedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
        if (!artifact) throw unknownArtifact(artifactId, requestId);
        const previous = await tx.findOne(ArtifactVersionEntity, { where: { artifactId, version: artifact.currentVersion } });
        if (!previous) throw new Error(`artifact ${artifactId} has no version ${artifact.currentVersion}`);
        const now = this.clock.now();
        await tx.update(ArtifactVersionEntity, { artifactKey: previous.artifactKey }, { replacedAt: now });
        Object.assign(artifact, {
          currentVersion: artifact.currentVersion + 1,
          title: declared.title ?? artifact.title,
          type: declared.type ?? artifact.type,
          updatedAt: now,
          updatedBy: principal.id,
        });
        await tx.update(ArtifactEntity, { id: artifactId }, { currentVersion: artifact.currentVersion, title: artifact.title, type: artifact.type, updatedAt: now, updatedBy: principal.id });
        const version = await this.insertVersion(tx, principal, artifact, artifact.currentVersion, artifactKey, storageKey, declared, stored, now);
        await this.manifests.changed(tx, row, principal, 'artifact_replaced');
        await this.manifests.record(tx, row, FulfilmentEventTypes.artifactReplaced, {
          ...this.manifests.facts(row, principal.id, now),
          ...versionFacts(artifact, version),
          manifestVersion: row.version,
          previousSha256: previous.sha256,
        } satisfies ArtifactReplacedV1);
        return { artifactId, artifactKey, replaced: true as const, requestId };
      });
    } catch (e) {
      await this.storage.delete(principal.tenantId, storageKey).catch(() => undefined);
      throw e;
    }
  }

  /** The version of an artifact of the request to download (the current one unless asked); 404 when it is not held. */
  async file(principal: Principal, requestId: string, query: ArtifactDownloadQuery): Promise<ArtifactVersionEntity> {
    const db = this.manifests.db;
    const artifact = isUuid(requestId) ? await db.getRepository(ArtifactEntity).findOne({ where: { id: query.artifactId, tenantId: principal.tenantId, requestId } }) : null;
    if (!artifact) throw new ProblemError('MANIFEST_ARTIFACT_DOWNLOAD_FAILED', `Request ${requestId} has no artifact ${query.artifactId}.`);
    const version = query.version ?? artifact.currentVersion;
    const file = await db.getRepository(ArtifactVersionEntity).findOne({ where: { artifactId: artifact.id, version, purgedAt: IsNull() } });
    if (!file) {
      throw new ProblemError(
        'MANIFEST_ARTIFACT_DOWNLOAD_FAILED',
        version > artifact.currentVersion ? `Artifact ${artifact.id} has no version ${version}.` : `The bytes of version ${version} of artifact ${artifact.id} are no longer held.`,
      );
    }
    return file;
  }

  /** A version's bytes, or a range of them, decrypted as they stream. */
  async open(file: ArtifactVersionEntity, range?: ByteRange): Promise<ArtifactDownload> {
    try {
      return { ...(await this.storage.get(file.tenantId, file.storageKey, range)), file };
    } catch (e) {
      this.logStorageFailure('read', e);
      throw storageReadProblem(e, `version ${file.version} of artifact ${file.artifactId}`);
    }
  }

  /**
   * Deletes the bytes of the request's replaced versions still held (at fulfilment); returns the keys deleted.
   * A file storage cannot delete now stays, held, for the next purge of the request.
   */
  async deleteReplaced(tenantId: string, requestId: string): Promise<string[]> {
    const replaced = await this.manifests.db.getRepository(ArtifactVersionEntity).find({ where: { tenantId, requestId, replacedAt: Not(IsNull()), purgedAt: IsNull() } });
    const deleted: string[] = [];
    for (const v of replaced) {
      try {
        await this.storage.delete(tenantId, v.storageKey);
        deleted.push(v.artifactKey);
      } catch (e) {
        this.logStorageFailure('delete', e);
      }
    }
    return deleted;
  }

  /**
   * Deletes every artifact file of a request (retention class `fulfilment_artifact`): the bytes go, the
   * metadata stays marked purged, and one event lists the artifacts. Returns the ids of the artifacts purged.
   */
  async purgeRequest(tenantId: string, requestId: string, actor: string): Promise<string[]> {
    const done = await this.uow.run((tx) => this.purgeIn(tx, tenantId, requestId, actor));
    await done.deleteBytes();
    return done.artifactIds;
  }

  /**
   * The purge in the caller's transaction: the request's artifact versions not purged yet (among `artifactIds`
   * and created at or before `createdBy`, when given) are marked purged with their artifacts, with
   * `dsar.fulfilment.artifacts_purged.v1`; rows another transaction holds are left to it. The bytes are deleted by
   * `deleteBytes`, after the commit: a crash in between leaves encrypted bytes no row points at.
   */
  async purgeIn(
    tx: EntityManager,
    tenantId: string,
    requestId: string,
    actor: string,
    only: { artifactIds?: string[]; createdBy?: Date } = {},
  ): Promise<{ artifactIds: string[]; versions: number; workspaceId: string | null; deleteBytes: () => Promise<void> }> {
    const held = await tx
      .getRepository(ArtifactVersionEntity)
      .createQueryBuilder('v')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('v.tenant_id = :tenantId AND v.request_id = :requestId AND v.purged_at IS NULL', { tenantId, requestId })
      .andWhere(only.artifactIds ? 'v.artifact_id IN (:...ids)' : 'TRUE', { ids: only.artifactIds && only.artifactIds.length > 0 ? only.artifactIds : ['00000000-0000-0000-0000-000000000000'] })
      .andWhere(only.createdBy ? 'v.created_at <= :createdBy' : 'TRUE', { createdBy: only.createdBy })
      .getMany();
    if (held.length === 0) return { artifactIds: [], versions: 0, workspaceId: null, deleteBytes: async () => undefined };
    const now = this.clock.now();
    const artifactIds = [...new Set(held.map((v) => v.artifactId))].sort();
    await tx.update(ArtifactVersionEntity, { artifactKey: In(held.map((v) => v.artifactKey)), purgedAt: IsNull() }, { purgedAt: now });
    // An artifact is purged once none of its versions is left.
    await tx.query(
      `UPDATE ${qualifiedTable(this.uow.dataSource, 'fulfilment_artifacts')} a SET purged_at = $2
        WHERE a.id = ANY($1::uuid[]) AND a.purged_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM ${qualifiedTable(this.uow.dataSource, 'fulfilment_artifact_versions')} v WHERE v.artifact_id = a.id AND v.purged_at IS NULL)`,
      [artifactIds, now],
    );
    const row = await tx.findOne(ManifestEntity, { where: { requestId } });
    const workspaceId = row?.workspaceId ?? null;
    await this.manifests.record(tx, { requestId, tenantId }, FulfilmentEventTypes.artifactsPurged, {
      ...this.manifests.facts({ requestId, tenantId, workspaceId }, actor, now),
      artifactIds,
      versions: held.length,
    } satisfies ArtifactsPurgedV1);
    return {
      artifactIds,
      versions: held.length,
      workspaceId,
      deleteBytes: async () => {
        for (const v of held) await this.storage.delete(tenantId, v.storageKey);
      },
    };
  }

  private async insertVersion(
    tx: EntityManager,
    principal: Principal,
    artifact: ArtifactEntity,
    version: number,
    artifactKey: string,
    storageKey: string,
    declared: Declared,
    stored: { size: number; sha256: string },
    now: Date,
  ): Promise<ArtifactVersionEntity> {
    const row = tx.create(ArtifactVersionEntity, {
      artifactKey,
      artifactId: artifact.id,
      tenantId: artifact.tenantId,
      requestId: artifact.requestId,
      version,
      filename: declared.filename,
      contentType: declared.contentType,
      redactionReason: declared.redactionReason,
      size: stored.size,
      sha256: stored.sha256,
      storageKey,
      createdAt: now,
      createdBy: principal.id,
      replacedAt: null,
      purgedAt: null,
    });
    await tx.insert(ArtifactVersionEntity, row);
    return row;
  }

  /** Streams the body into storage, refused as soon as it crosses the limit; nothing is kept on any failure. */
  private async store(tenantId: string, storageKey: string, body: Readable, code: ArtifactWriteCode): Promise<{ size: number; sha256: string }> {
    try {
      // The request stays open (not destroyed) so that a refusal can still be answered.
      return await this.storage.put(tenantId, storageKey, body, { maxBytes: this.settings.artifactMaxBytes, destroySourceOnError: false });
    } catch (e) {
      const problem = storageWriteProblem(e, code, this.settings.artifactMaxBytes, body);
      if (problem instanceof ProblemError && problem.status === 503) this.logStorageFailure('write', e);
      throw problem;
    }
  }

  /** A quick look before any byte is read: a fulfilment under way refuses the upload now, not after a long transfer (checked again when recording). */
  private async refuseWhileFulfilling(detail: RequestDetail, what: string): Promise<void> {
    if (await this.manifests.fulfilmentUnderway(this.manifests.db, detail.id)) throw beingFulfilledProblem(detail, what);
  }

  private checkLength(header: string | undefined, code: ArtifactWriteCode): void {
    const length = header !== undefined ? Number(header) : undefined;
    if (length !== undefined && length > this.settings.artifactMaxBytes) throw tooLarge(this.settings.artifactMaxBytes);
    if (length === 0) throw emptyUpload(code);
  }

  /** Every header checked before a byte is read; each problem is a 400 naming its header. */
  private declared(headers: ArtifactUploadHeaders, upload: boolean): Declared {
    const problems: Array<{ field: string; message: string }> = [];
    let filename = '';
    if (headers.filename === undefined || headers.filename.trim() === '') {
      problems.push({ field: HEADER.filename, message: 'is a required header' });
    } else {
      try {
        filename = safeFilename(headers.filename);
      } catch (e) {
        problems.push({ field: HEADER.filename, message: (e as Error).message });
      }
    }
    let contentType: string | undefined;
    if (headers.contentType === undefined || headers.contentType.trim() === '') {
      problems.push({ field: HEADER.contentType, message: 'is a required header' });
    } else {
      contentType = artifactContentTypeOf(headers.contentType);
      if (!contentType) problems.push({ field: HEADER.contentType, message: 'must be a media type, e.g. application/json' });
    }
    // Absent (or blank): `other` and the filename for an upload; a replacement keeps the artifact's.
    const given = (v: string | undefined) => v !== undefined && v.trim() !== '';
    const type = given(headers.type) || upload ? artifactTypeOf(headers.type) : undefined;
    if (given(headers.type) && type === undefined) problems.push({ field: HEADER.type, message: `must be one of ${ARTIFACT_TYPES.join(', ')}` });
    let title: string | undefined;
    try {
      title = given(headers.title) || upload ? artifactTitleOf(headers.title, filename) : undefined;
    } catch (e) {
      problems.push({ field: HEADER.title, message: (e as Error).message });
    }
    let redactionReason: string | null = null;
    try {
      redactionReason = upload ? null : redactionReasonOf(headers.redactionReason);
    } catch (e) {
      problems.push({ field: HEADER.redactionReason, message: (e as Error).message });
    }
    if (problems.length > 0) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', `Header${problems.length === 1 ? '' : 's'} ${problems.map((p) => p.field).join(', ')}: missing or invalid.`, problems);
    }
    return { filename, contentType: contentType ?? 'application/octet-stream', title, type, redactionReason };
  }

  private logStorageFailure(operation: string, e: unknown): void {
    this.log.warn(`artifact storage ${operation} failed: ${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`);
  }
}

function newArtifactKey(): string {
  return `art_${randomBytes(16).toString('hex')}`;
}

function storageKeyOf(requestId: string, artifactKey: string): string {
  return `fulfilment/${requestId}/${artifactKey}`;
}

function unknownArtifact(artifactId: string, requestId: string): ProblemError {
  return new ProblemError('MANIFEST_ARTIFACT_REPLACE_FAILED', `Request ${requestId} has no artifact ${artifactId} to replace.`, undefined, {}, {}, 404);
}

function versionFacts(artifact: ArtifactEntity, version: ArtifactVersionEntity) {
  return {
    artifactId: artifact.id,
    artifactKey: version.artifactKey,
    version: version.version,
    type: artifact.type,
    contentType: version.contentType,
    size: version.size,
    sha256: version.sha256,
  };
}
