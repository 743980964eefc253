import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Between, type EntityManager } from 'typeorm';
import {
  type DuplicateMarkedV1,
  idRangeOfReference,
  isUuid,
  LifecycleEventTypes,
  type NewRequestCommand,
  RequestEventTypes,
  type RequestCreatedV1,
  type RequestType,
  SHORT_REFERENCE_PATTERN,
  type TriageReason,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import type { TenantScope } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { entityInsert, UnitOfWork } from '@dsar/platform/persistence';
import { isInFuture } from '../domain/clock-skew';
import { initialDeadlines, requireClockMode, requireJurisdiction } from '../domain/request-deadline';
import { type NewRequestRow, RequestEntity } from '../infrastructure/request.entity';
import { PolicyCopy } from './policy-copy';
import { RequestIdentities } from './request-identities';

/**
 * Records new requests: the aggregate row, its pinned policy and due time,
 * and its `dsar.request.created.v1` event commit in one transaction, so the
 * event exists exactly when the request does.
 */
@Injectable()
export class RequestRegistry {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly policies: PolicyCopy,
    private readonly identities: RequestIdentities,
  ) {}

  /**
   * Records a new request. Its writes (the request row, its index rows, its outbox rows) go to the database as one
   * statement at the end of the unit of work (`UnitOfWork.defer`), with the idempotency record of a keyed create:
   * before that, the transaction sends only the duplicate check's locks and reads. Nothing written is read back, so
   * the row returned has no `createdAt` or `updatedAt` (the database stamps them).
   */
  async create(scope: TenantScope, command: NewRequestCommand, now = this.clock.now()): Promise<NewRequestRow> {
    const resolved = requireJurisdiction(command.jurisdiction);
    const intakeReceivedAt = new Date(command.intakeSource.receivedAt);
    const receivedAt = command.receivedAt ? new Date(command.receivedAt) : now;
    checkTimes(intakeReceivedAt, receivedAt, now);
    // Inside the caller's transaction when there is one (an idempotent create holds its claim in one; PGlite has one connection).
    const jurisdiction = await this.policies.choose(this.uow.manager, scope, resolved, intakeReceivedAt);
    const clockMode = requireClockMode(jurisdiction, command.clockMode);
    const deadlines = initialDeadlines(jurisdiction, command.requestType, clockMode, intakeReceivedAt);
    return this.uow.run(async (tx) => {
      const row: NewRequestRow = {
        id: randomUUID(),
        tenantId: scope.tenantId,
        workspaceId: scope.workspaceId ?? null,
        jurisdiction: jurisdiction.binding.code,
        requestType: command.requestType,
        requestTypeInferred: command.requestTypeInferred,
        requestedRights: command.requestedRights ?? [],
        typeConfidence: command.reading?.confidence ?? null,
        detectedLanguage: command.reading?.detectedLanguage ?? null,
        triageReason: command.reading?.triageReason ?? null,
        suggestedType: command.reading?.suggestedType ?? null,
        status: 'received',
        channel: command.intakeSource.channel,
        receivedAt,
        intakeReceivedAt,
        clockMode,
        policyPack: jurisdiction.pack.packId,
        policyVersion: jurisdiction.pack.version,
        policyBasis: jurisdiction.basis,
        dueAt: deadlines.dueAt,
        acknowledgementDueAt: deadlines.acknowledgementDueAt,
        acknowledgedAt: null,
        statusReason: null,
        statusChangedAt: receivedAt,
        openAppealId: null,
        clockPausedSince: null,
        intakeSource: command.intakeSource,
        locale: command.locale ?? null,
        requestor: command.requestor ?? null,
        authority: command.authority ?? null,
        duplicateOf: null,
        duplicateState: null,
        duplicateMarkedAt: null,
        duplicateMatchedKinds: null,
        lastEventId: null,
        version: 1,
      };
      // A new id has no index rows to replace; the duplicate check excludes the request's own, so they are written with it below.
      const entries = this.identities.entriesOf(row);
      const mark = await this.identities.markIfDuplicate(tx, row, entries, now);
      const data: RequestCreatedV1 = {
        requestId: row.id,
        tenantId: row.tenantId,
        workspaceId: row.workspaceId,
        jurisdiction: row.jurisdiction,
        requestType: command.requestType,
        requestTypeInferred: row.requestTypeInferred,
        requestedRights: rightsAsked(command),
        triageReason: row.triageReason as TriageReason | null,
        status: 'received',
        receivedAt: row.receivedAt.toISOString(),
        intakeReceivedAt: row.intakeReceivedAt.toISOString(),
        dueAt: row.dueAt.toISOString(),
        clockMode: row.clockMode,
        policyPack: row.policyPack,
        policyVersion: row.policyVersion,
        policyBasis: jurisdiction.basis,
        channel: row.channel,
        requestorType: row.requestor?.type ?? null,
      };
      const events = [this.outbox.envelopeOf({ type: RequestEventTypes.created, subject: row.id, tenantId: row.tenantId, data })];
      if (mark) {
        row.duplicateOf = mark.duplicateOf;
        row.duplicateState = 'marked';
        row.duplicateMarkedAt = new Date(mark.markedAt);
        row.duplicateMatchedKinds = mark.matchedKinds;
        const marked: DuplicateMarkedV1 = { requestId: row.id, tenantId: row.tenantId, workspaceId: row.workspaceId, ...mark };
        events.push(this.outbox.envelopeOf({ type: LifecycleEventTypes.duplicateMarked, subject: row.id, tenantId: row.tenantId, data: marked }));
      }
      row.lastEventId = events[events.length - 1].id;
      this.uow.defer(tx, entityInsert(this.uow.dataSource, RequestEntity, [row]), ...this.identities.insertOf(row, entries), this.outbox.insertOf(events.map((envelope) => ({ envelope }))));
      return row;
    });
  }

  /** The manager of plain reads, outside any transaction. */
  get manager(): EntityManager {
    return this.uow.dataSource.manager;
  }

  /**
   * The request if the caller's scope may see it; another tenant's (or workspace's) request does not exist for it.
   * Inside a transaction, `lock` holds the row until it commits, so changes to one request run one after the other.
   */
  async find(scope: TenantScope, id: string, options: { manager?: EntityManager; lock?: boolean } = {}): Promise<RequestEntity | null> {
    if (!isUuid(id)) return null;
    return (options.manager ?? this.uow.dataSource.manager).findOne(RequestEntity, {
      where: { id, tenantId: scope.tenantId, ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}) },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * The one request of the caller's scope whose id starts with the reference's eight hex digits (`DSAR-1A2B3C4D`,
   * as people quote it back; intake matches replies by it). Null when there is none, or more than one: a reference
   * shared by two requests names neither. Served by the primary key (a range of ids).
   */
  async findByReference(scope: TenantScope, reference: string): Promise<RequestEntity | null> {
    const rows = await this.byReference(scope, reference);
    return rows.length === 1 ? rows[0] : null;
  }

  /** Up to two requests of the caller's scope whose ids start with the reference's eight hex digits: two say it is ambiguous. */
  private async byReference(scope: TenantScope, reference: string): Promise<RequestEntity[]> {
    const range = idRangeOfReference(reference);
    if (!range) return [];
    return this.uow.dataSource.manager.find(RequestEntity, {
      where: { id: Between(range.from, range.to), tenantId: scope.tenantId, ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}) },
      order: { id: 'ASC' },
      take: 2,
    });
  }

  /**
   * The request a path names, by its id or by its short reference (`DSAR-1A2B3C4D`, any case), answering as
   * `require` does: 404 when the caller's scope has none. A value that starts like a reference and is not one (a
   * tagged reference, a wrong length) is 400; a reference two requests of the scope share is 409
   * REQUEST_REFERENCE_AMBIGUOUS, since answering one of them would open the wrong request for the other.
   */
  async requireByIdOrReference(scope: TenantScope, idOrReference: string): Promise<RequestEntity> {
    if (!/^dsar-/i.test(idOrReference)) return this.require(scope, idOrReference);
    if (!SHORT_REFERENCE_PATTERN.test(idOrReference)) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', 'A request is named by its id or by its short reference, DSAR- and eight hex digits (DSAR-1A2B3C4D).', [
        { field: 'idOrReference', message: 'must be a request id (UUID) or a short reference such as DSAR-1A2B3C4D (a tagged reference from an email to the data subject is named by its first part)' },
      ]);
    }
    const rows = await this.byReference(scope, idOrReference);
    const reference = idOrReference.toUpperCase();
    if (rows.length === 0) throw new ProblemError('RESOURCE_NOT_FOUND', `No request has the reference ${reference}.`);
    if (rows.length > 1) {
      throw new ProblemError('REQUEST_REFERENCE_AMBIGUOUS', `More than one request has the reference ${reference}: list them with GET /api/v1/requests?reference=${reference} and open one by its id.`);
    }
    return rows[0];
  }

  /** Like `find`, answering 404 when the caller's scope has no such request. */
  async require(scope: TenantScope, id: string, options: { manager?: EntityManager; lock?: boolean } = {}): Promise<RequestEntity> {
    const row = await this.find(scope, id, options);
    if (!row) throw new ProblemError('RESOURCE_NOT_FOUND', `No request ${id}.`);
    return row;
  }
}

/** The rights a new request asks for, as its event lists them: those intake read, else the type the client named (none in triage). */
function rightsAsked(command: NewRequestCommand): RequestType[] {
  const read = command.requestedRights?.map((r) => r.type) ?? [];
  if (read.length > 0) return [...new Set(read)];
  return command.requestType === null ? [] : [command.requestType];
}

function checkTimes(intakeReceivedAt: Date, receivedAt: Date, now: Date): void {
  const errors = [];
  if (isInFuture(intakeReceivedAt, now)) {
    errors.push({ field: 'intakeSource.receivedAt', message: 'must not be in the future' });
  }
  if (isInFuture(receivedAt, now)) {
    errors.push({ field: 'receivedAt', message: 'must not be in the future' });
  }
  if (receivedAt.getTime() < intakeReceivedAt.getTime()) {
    errors.push({ field: 'receivedAt', message: 'must not be before intakeSource.receivedAt (the service cannot record a request before the channel received it)' });
  }
  if (errors.length > 0) {
    throw new ProblemError('RECEIPT_TIME_INVALID', `Inconsistent times: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors);
  }
}
