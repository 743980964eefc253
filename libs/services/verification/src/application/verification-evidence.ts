import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull } from 'typeorm';
import {
  defaultVerificationLevel,
  type EvidenceArtifactReference,
  type Principal,
  allowedActionsOf,
  type RequestDetail,
  type RequestStatus,
  VERIFICATION_LEVELS,
  type VerificationEvidenceCommand,
  type VerificationEvidenceReceivedV1,
  type VerificationEvidencePurgedV1,
  VerificationEventTypes,
  type VerificationLevel,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import {
  BlobNotFoundError,
  type ByteRange,
  EmptyPayloadError,
  FileStorage,
  type GetResult,
  PayloadTooLargeError,
  safeFilename,
  StorageUnavailableError,
  TenantKeyDestroyedError,
} from '@dsar/platform/storage';
import { contradictsDeclaredType, normalizeMediaType, SNIFF_BYTES, sniffMediaType } from '../domain/evidence-type';
import { EvidenceEntity } from '../infrastructure/evidence.entity';
import { EvidenceFileEntity } from '../infrastructure/evidence-file.entity';
import { VERIFICATION_SETTINGS, type VerificationSettings } from '../verification-settings';
import type { VerificationCaseEntity } from '../infrastructure/verification-case.entity';
import { peekHead } from './stream-head';
import { VerificationCases } from './verification-cases';

const CLOSED: readonly RequestStatus[] = ['fulfilled', 'refused', 'closed'];
/** The filename of an upload that names none. */
const DEFAULT_FILENAME = 'evidence';

/** The upload's headers as the client sent them (each optional). */
export interface EvidenceUploadHeaders {
  filename?: string;
  contentType?: string;
  level?: string;
  contentLength?: string;
}

export interface EvidenceUploadResult {
  artifactKey: string;
  evidenceId: string;
  requestId: string;
  status: 'pending';
}

/** An evidence file to stream to a reviewer. */
export interface EvidenceDownload extends GetResult {
  file: EvidenceFileEntity;
}

/**
 * Identity evidence: files streamed into encrypted storage (never held whole
 * in memory), references to evidence held elsewhere, the metadata reviewers
 * see, the files they download, and the purge of a request's files
 * (retention class `verification_evidence`).
 */
@Injectable()
export class VerificationEvidence {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly cases: VerificationCases,
    private readonly lifecycle: LifecycleClient,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
    @Inject(VERIFICATION_SETTINGS) private readonly settings: VerificationSettings,
  ) {}

  /** The transaction the caller is in (an event handler's inbox transaction), else the data source: in embedded mode one database session serves every service, so a read must never wait outside the transaction that holds it. */
  private get db(): EntityManager {
    return this.uow.manager;
  }

  /**
   * Stores one uploaded file as a new piece of evidence. Every header is checked before a byte is read, the
   * first bytes before a byte is stored (their type, against the declared one); a file over the limit is
   * refused as soon as the limit is crossed and nothing of it is kept.
   */
  async upload(principal: Principal, requestId: string, headers: EvidenceUploadHeaders, body: Readable): Promise<EvidenceUploadResult> {
    const filename = this.filenameOf(headers.filename);
    const declared = this.declaredTypeOf(headers.contentType);
    const declaredLevel = this.levelOf(headers.level);
    const length = headers.contentLength !== undefined ? Number(headers.contentLength) : undefined;
    if (length !== undefined && length > this.settings.evidenceMaxBytes) throw this.tooLarge();
    if (length === 0) throw emptyUpload();

    const detail = await this.openRequest(principal, requestId);
    const pending = await this.cases.pendingCase(principal.tenantId, requestId);
    // `file` carries every byte: the head put back, or the whole file when it is shorter than the head.
    const { head, body: file } = await peekHead(body, SNIFF_BYTES);
    if (head.length === 0) throw emptyUpload();
    const contentType = declared ?? sniffMediaType(head);
    if (!contentType || !this.settings.evidenceContentTypes.includes(contentType)) throw this.typeNotAllowed(contentType);
    if (declared !== undefined && contradictsDeclaredType(declared, head)) throw contentMismatch(declared, sniffMediaType(head));

    const artifactKey = `ev_${randomBytes(16).toString('hex')}`;
    const storageKey = `verification/${requestId}/${artifactKey}`;
    let stored: { size: number; sha256: string };
    try {
      // The request stays open (not destroyed) so that a refusal can still be answered.
      stored = await this.storage.put(principal.tenantId, storageKey, file, { maxBytes: this.settings.evidenceMaxBytes, destroySourceOnError: false });
    } catch (e) {
      if (e instanceof PayloadTooLargeError) throw this.tooLarge();
      if (e instanceof EmptyPayloadError) throw emptyUpload();
      throw storageProblem(e, artifactKey);
    }
    try {
      return await this.uow.run(async (tx) => {
        const upload = { artifactKey, size: stored.size, sha256: stored.sha256, contentType };
        const evidence = await this.insertEvidence(tx, principal, detail, pending, {
          level: declaredLevel ?? pending?.level ?? defaultVerificationLevel(detail.requestType),
          methodsAllowed: pending?.methodsAllowed ?? [],
          artifacts: [{ type: 'upload', artifactKey }],
          reasonForDoubt: null,
          upload,
        });
        await tx.insert(EvidenceFileEntity, {
          ...upload,
          tenantId: principal.tenantId,
          requestId,
          evidenceId: evidence.id,
          filename,
          storageKey,
          uploadedAt: evidence.createdAt,
          uploadedBy: principal.id,
          purgedAt: null,
        });
        return { artifactKey, evidenceId: evidence.id, requestId, status: 'pending' as const };
      });
    } catch (e) {
      // Not recorded: the bytes must not outlive their record.
      await this.storage.delete(principal.tenantId, storageKey).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Records evidence made of uploaded files of this request and references to evidence held elsewhere. An upload is
   * already a piece of evidence: a command that names uploaded files describes that piece (its level, methods, doubt)
   * and adds its references to it, rather than making a second record without files; files of two pieces are a 409.
   */
  async record(
    principal: Principal,
    requestId: string,
    command: VerificationEvidenceCommand,
  ): Promise<{ requestId: string; evidenceId: string; level: VerificationLevel; status: 'pending'; surface: 'verification_evidence' }> {
    const detail = await this.openRequest(principal, requestId);
    const keys = [...new Set(command.evidenceArtifacts.flatMap((a) => (a.type === 'upload' ? [a.artifactKey] : [])))];
    let uploaded: string | undefined;
    if (keys.length > 0) {
      const known = await this.db.getRepository(EvidenceFileEntity).find({
        where: { tenantId: principal.tenantId, requestId, artifactKey: In(keys), purgedAt: IsNull() },
        select: { artifactKey: true, evidenceId: true },
      });
      const unknown = keys.filter((k) => !known.some((f) => f.artifactKey === k));
      if (unknown.length > 0) {
        throw new ProblemError('VERIFICATION_EVIDENCE_UNKNOWN', `No file of this request was uploaded under ${unknown.join(', ')}: upload it first (POST …/verification/evidence/upload).`, undefined, {
          artifactKeys: unknown,
        });
      }
      const evidenceIds = [...new Set(known.map((f) => f.evidenceId))].sort();
      if (evidenceIds.length > 1) {
        throw new ProblemError('VERIFICATION_EVIDENCE_FILES_SPLIT', `The files named were uploaded as ${evidenceIds.length} pieces of evidence: describe each in a call of its own.`, undefined, {
          evidenceIds,
        });
      }
      uploaded = evidenceIds[0];
    }
    if (uploaded !== undefined) return this.describeUploaded(principal, requestId, uploaded, command);
    const pending = await this.cases.pendingCase(principal.tenantId, requestId);
    return this.uow.run(async (tx) => {
      const evidence = await this.insertEvidence(tx, principal, detail, pending, {
        level: command.level,
        methodsAllowed: command.methodsAllowed,
        artifacts: command.evidenceArtifacts,
        reasonForDoubt: command.reasonForDoubt ?? null,
        upload: null,
      });
      return { requestId, evidenceId: evidence.id, level: command.level, status: 'pending' as const, surface: 'verification_evidence' as const };
    });
  }

  /**
   * The evidence an upload made, described by a command that names its files: the command's level, methods and doubt,
   * and its references added to the upload's. The upload's record and event stay the receipt of the evidence.
   */
  private async describeUploaded(
    principal: Principal,
    requestId: string,
    evidenceId: string,
    command: VerificationEvidenceCommand,
  ): Promise<{ requestId: string; evidenceId: string; level: VerificationLevel; status: 'pending'; surface: 'verification_evidence' }> {
    return this.uow.run(async (tx) => {
      const evidence = await tx.findOne(EvidenceEntity, { where: { id: evidenceId, tenantId: principal.tenantId, requestId }, lock: { mode: 'pessimistic_write' } });
      if (!evidence) throw new ProblemError('VERIFICATION_EVIDENCE_UNKNOWN', `Request ${requestId} has no evidence ${evidenceId}.`);
      const held = new Set(evidence.artifacts.map(referenceKey));
      const artifacts = [...evidence.artifacts, ...command.evidenceArtifacts.filter((a) => !held.has(referenceKey(a)))];
      await tx.update(
        EvidenceEntity,
        { id: evidenceId },
        { level: command.level, methodsAllowed: command.methodsAllowed, artifacts, reasonForDoubt: command.reasonForDoubt ?? evidence.reasonForDoubt },
      );
      return { requestId, evidenceId, level: command.level, status: 'pending' as const, surface: 'verification_evidence' as const };
    });
  }

  /** A new evidence record of the request (attached to its pending case, if any) and its event, in the transaction. */
  private async insertEvidence(
    tx: EntityManager,
    principal: Principal,
    detail: RequestDetail,
    pending: VerificationCaseEntity | null,
    what: Pick<EvidenceEntity, 'level' | 'methodsAllowed' | 'artifacts' | 'reasonForDoubt'> & { upload: VerificationEvidenceReceivedV1['upload'] },
  ): Promise<EvidenceEntity> {
    const now = this.clock.now();
    const { upload, ...fields } = what;
    const evidence = tx.create(EvidenceEntity, {
      ...fields,
      id: randomUUID(),
      tenantId: principal.tenantId,
      requestId: detail.id,
      caseId: pending?.id ?? null,
      status: 'pending',
      createdAt: now,
      createdBy: principal.id,
    });
    await tx.insert(EvidenceEntity, evidence);
    await this.cases.record(tx, { requestId: detail.id, tenantId: detail.tenantId }, VerificationEventTypes.evidenceReceived, {
      ...this.requestFacts(detail),
      caseId: evidence.caseId,
      actor: principal.id,
      occurredAt: now.toISOString(),
      evidenceId: evidence.id,
      level: evidence.level,
      artifactCount: what.artifacts.length,
      upload,
    } satisfies VerificationEvidenceReceivedV1);
    return evidence;
  }

  /** The evidence of a request, oldest first, with the metadata of its files. */
  async evidenceOf(tenantId: string, requestId: string): Promise<Array<{ evidence: EvidenceEntity; files: EvidenceFileEntity[] }>> {
    const [evidence, files] = await Promise.all([
      this.db.getRepository(EvidenceEntity).find({ where: { tenantId, requestId }, order: { createdAt: 'ASC', id: 'ASC' } }),
      this.db.getRepository(EvidenceFileEntity).find({ where: { tenantId, requestId, purgedAt: IsNull() } }),
    ]);
    return evidence.map((e) => ({ evidence: e, files: files.filter((f) => f.evidenceId === e.id) }));
  }

  /** The metadata of an evidence file of the request still held (404 otherwise). */
  async file(principal: Principal, requestId: string, artifactKey: string): Promise<EvidenceFileEntity> {
    const file = await this.db.getRepository(EvidenceFileEntity).findOne({ where: { tenantId: principal.tenantId, requestId, artifactKey, purgedAt: IsNull() } });
    if (!file) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${requestId} has no evidence file ${artifactKey}.`);
    return file;
  }

  /** An evidence file's bytes, or a range of them, decrypted as they stream. */
  async open(file: EvidenceFileEntity, range?: ByteRange): Promise<EvidenceDownload> {
    try {
      return { ...(await this.storage.get(file.tenantId, file.storageKey, range)), file };
    } catch (e) {
      throw storageProblem(e, file.artifactKey);
    }
  }

  /**
   * Deletes the evidence files of a request (retention class `verification_evidence`): the bytes go, the
   * metadata stays marked purged, and one event lists the keys. Returns the keys purged.
   */
  async purgeRequest(tenantId: string, requestId: string, actor: string): Promise<string[]> {
    const done = await this.uow.run((tx) => this.purgeIn(tx, tenantId, requestId, actor));
    await done.deleteBytes();
    return done.keys;
  }

  /**
   * The purge in the caller's transaction: the request's files not purged yet (uploaded at or before
   * `uploadedBy`, among `keys`, when given) are marked purged, with `dsar.verification.evidence_purged.v1`;
   * rows another transaction holds are left to it. The bytes are deleted by `deleteBytes`, after the commit:
   * a crash in between leaves encrypted bytes no row points at, never a row whose bytes are gone unrecorded.
   */
  async purgeIn(
    tx: EntityManager,
    tenantId: string,
    requestId: string,
    actor: string,
    only: { keys?: string[]; uploadedBy?: Date } = {},
  ): Promise<{ keys: string[]; workspaceId: string | null; deleteBytes: () => Promise<void> }> {
    const files = await tx
      .getRepository(EvidenceFileEntity)
      .createQueryBuilder('f')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('f.tenant_id = :tenantId AND f.request_id = :requestId AND f.purged_at IS NULL', { tenantId, requestId })
      .andWhere(only.keys ? 'f.artifact_key IN (:...keys)' : 'TRUE', { keys: only.keys && only.keys.length > 0 ? only.keys : [''] })
      .andWhere(only.uploadedBy ? 'f.uploaded_at <= :uploadedBy' : 'TRUE', { uploadedBy: only.uploadedBy })
      .orderBy('f.artifact_key')
      .getMany();
    if (files.length === 0) return { keys: [], workspaceId: null, deleteBytes: async () => undefined };
    const now = this.clock.now();
    const keys = files.map((f) => f.artifactKey);
    await tx.update(EvidenceFileEntity, { artifactKey: In(keys), purgedAt: IsNull() }, { purgedAt: now });
    const latest = await this.cases.latestCase(tenantId, requestId);
    const workspaceId = latest?.workspaceId ?? null;
    await this.cases.record(tx, { requestId, tenantId }, VerificationEventTypes.evidencePurged, {
      requestId,
      tenantId,
      workspaceId,
      caseId: latest?.id ?? null,
      actor,
      occurredAt: now.toISOString(),
      artifactKeys: keys,
    } satisfies VerificationEvidencePurgedV1);
    return {
      keys,
      workspaceId,
      deleteBytes: async () => {
        for (const f of files) await this.storage.delete(tenantId, f.storageKey);
      },
    };
  }

  private requestFacts(detail: RequestDetail) {
    return { requestId: detail.id, tenantId: detail.tenantId, workspaceId: detail.workspaceId };
  }

  /** The request, which must be open to take evidence (404 for another tenant's). */
  private async openRequest(principal: Principal, requestId: string): Promise<RequestDetail> {
    const detail = await this.lifecycle.request(principal, requestId);
    if (CLOSED.includes(detail.status)) {
      throw new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `The request is ${detail.status}: it takes no more evidence.`, undefined, {
        currentStatus: detail.status,
        allowedActions: allowedActionsOf(detail),
      });
    }
    return detail;
  }

  private filenameOf(header: string | undefined): string {
    if (header === undefined || header.trim() === '') return DEFAULT_FILENAME;
    try {
      return safeFilename(header);
    } catch (e) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', `x-evidence-filename ${(e as Error).message}.`, [{ field: 'x-evidence-filename', message: (e as Error).message }]);
    }
  }

  private declaredTypeOf(header: string | undefined): string | undefined {
    // Absent: recognized from the bytes. Present but empty is not a media type.
    if (header === undefined) return undefined;
    const type = normalizeMediaType(header);
    if (!type) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', 'x-evidence-content-type must be a media type, e.g. application/pdf.', [
        { field: 'x-evidence-content-type', message: 'must be a media type, e.g. application/pdf' },
      ]);
    }
    if (!this.settings.evidenceContentTypes.includes(type)) throw this.typeNotAllowed(type);
    return type;
  }

  private levelOf(header: string | undefined): VerificationLevel | undefined {
    if (header === undefined) return undefined;
    const level = header.trim().toLowerCase();
    if (!(VERIFICATION_LEVELS as readonly string[]).includes(level)) {
      const message = `must be one of ${VERIFICATION_LEVELS.join(', ')}`;
      throw new ProblemError('REQUEST_VALIDATION_FAILED', `x-evidence-level ${message}.`, [{ field: 'x-evidence-level', message }]);
    }
    return level as VerificationLevel;
  }

  private tooLarge(): ProblemError {
    return new ProblemError('PAYLOAD_TOO_LARGE', `An evidence file may have at most ${this.settings.evidenceMaxBytes} bytes.`, undefined, { maxBytes: this.settings.evidenceMaxBytes });
  }

  private typeNotAllowed(type: string | undefined): ProblemError {
    const allowed = [...this.settings.evidenceContentTypes];
    const what = type ? `${type} is not accepted` : "the file's type was not declared (x-evidence-content-type) and was not recognized";
    return new ProblemError('EVIDENCE_CONTENT_TYPE_NOT_ALLOWED', `Evidence files must be one of ${allowed.join(', ')}: ${what}.`, undefined, { allowed });
  }
}

/** A storage failure as the client sees it; anything unexpected (an integrity failure) stays an internal error. */
/** What makes two references to evidence the same one: an upload's key, or where an external check is held. */
function referenceKey(reference: EvidenceArtifactReference): string {
  return reference.type === 'upload' ? `upload:${reference.artifactKey}` : `external:${reference.system}:${reference.reference}`;
}

function storageProblem(e: unknown, artifactKey: string): unknown {
  if (e instanceof StorageUnavailableError) return new ProblemError('SERVICE_UNAVAILABLE', 'Evidence storage is not available right now.', undefined, {}, { 'Retry-After': '5' });
  if (e instanceof TenantKeyDestroyedError) return new ProblemError('EVIDENCE_FILE_SHREDDED', `The bytes of ${artifactKey} were shredded with the tenant's data key.`);
  if (e instanceof BlobNotFoundError) return new ProblemError('RESOURCE_NOT_FOUND', `The bytes of ${artifactKey} are no longer held.`);
  return e;
}

function emptyUpload(): ProblemError {
  return new ProblemError('EVIDENCE_UPLOAD_EMPTY', 'The upload has no bytes: send the file as the request body.');
}

/** Bytes that are not what the client said they are: refused, so that no file is stored under a false type. */
function contentMismatch(declared: string, recognized: string | undefined): ProblemError {
  const found = recognized ? `they are those of ${recognized}` : 'they carry no file signature known here';
  return new ProblemError(
    'EVIDENCE_CONTENT_MISMATCH',
    `The file was declared ${declared} (x-evidence-content-type), but its first bytes are not those of ${declared}: ${found}. Declare the file's real type, or leave the header out to have it recognized.`,
    undefined,
    { declared, recognized: recognized ?? null },
  );
}
