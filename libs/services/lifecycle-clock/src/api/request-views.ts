import { allowedActionsOf, type AppealView, OPEN_STATUSES, type QueuePage, type QueueQuery, type RequestDetail, type RequestStatus, type TransitionRecord } from '@dsar/contracts';
import type { QueueSlice } from '../application/request-queue';
import { duplicateMarkOf } from '../domain/duplicate-mark';
import { requestorOf } from '../domain/identity/requestor-identities';
import type { RequestEntity } from '../infrastructure/request.entity';
import type { RequestTransitionEntity } from '../infrastructure/request-transition.entity';

const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);

/** The request as `GET /requests/:id` shows it; `identityActivity` from RequestIdentities.activityOf. */
export function detailOf(row: RequestEntity, appeals: AppealView[], identityActivity: RequestDetail['identityActivity']): RequestDetail {
  const detail: Omit<RequestDetail, 'allowedActions'> = {
    id: row.id,
    tenantId: row.tenantId,
    workspaceId: row.workspaceId,
    status: row.status as RequestStatus,
    requestType: row.requestType as RequestDetail['requestType'],
    requestTypeInferred: row.requestTypeInferred,
    requestedRights: row.requestedRights ?? [],
    typeConfidence: row.typeConfidence ?? null,
    detectedLanguage: row.detectedLanguage ?? null,
    triage: triageOf(row),
    jurisdiction: row.jurisdiction,
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    clockMode: row.clockMode,
    policyPack: row.policyPack,
    policyVersion: row.policyVersion,
    intakeSource: row.intakeSource,
    locale: row.locale ?? null,
    // The spec makes requestor.type always present: a request taken in without a requestor was made by the data subject.
    requestor: requestorOf(row),
    authority: row.authority ?? null,
    appeals,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgementDueAt: row.acknowledgementDueAt?.toISOString() ?? null,
    statusReason: row.statusReason,
    statusChangedAt: row.statusChangedAt.toISOString(),
    duplicate: duplicateMarkOf(row),
    identityActivity,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  return { ...detail, allowedActions: allowedActionsOf(detail) };
}

/**
 * The triage of a request without a type: why intake left it to an operator, its best guess, and its confidence.
 * null once the type is known, whatever the request went through before.
 */
export function triageOf(row: Pick<RequestEntity, 'requestType' | 'triageReason' | 'suggestedType' | 'typeConfidence'>): RequestDetail['triage'] {
  if (row.requestType !== null) return null;
  return {
    // The table's check keeps a reason beside every missing type; `no_rule_matched` says the least should one be missing.
    reason: (row.triageReason ?? 'no_rule_matched') as NonNullable<RequestDetail['triage']>['reason'],
    suggestedType: row.suggestedType as NonNullable<RequestDetail['triage']>['suggestedType'],
    confidence: row.typeConfidence ?? 0,
  };
}

/** A queue page: no personal data, just what triage needs. */
/** A page of the queue, echoing the filters as the query settled them (lists split, codes in capitals). */
export function queuePageOf(slice: QueueSlice, filters: Omit<QueueQuery, 'limit' | 'offset' | 'sortBy' | 'sortOrder'>, now: Date): QueuePage {
  return {
    items: slice.rows.map((row) => ({
      id: row.id,
      workspaceId: row.workspaceId,
      status: row.status as RequestStatus,
      requestType: row.requestType as RequestDetail['requestType'],
      triage: row.requestType === null,
      duplicateOf: row.duplicateState === 'marked' || row.duplicateState === 'confirmed' ? row.duplicateOf : null,
      jurisdiction: row.jurisdiction,
      channel: row.channel as RequestDetail['intakeSource']['channel'],
      receivedAt: row.receivedAt.toISOString(),
      dueAt: row.dueAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      overdue: isOpen(row.status) && row.dueAt.getTime() < now.getTime(),
    })),
    limit: slice.limit,
    offset: slice.offset,
    sortBy: slice.sortBy,
    sortOrder: slice.sortOrder,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.atRiskDays !== undefined ? { atRiskDays: filters.atRiskDays } : {}),
    ...(filters.requestType ? { requestType: filters.requestType } : {}),
    ...(filters.jurisdiction ? { jurisdiction: filters.jurisdiction } : {}),
    ...(filters.channel ? { channel: filters.channel } : {}),
    ...(filters.receivedFrom !== undefined ? { receivedFrom: filters.receivedFrom } : {}),
    ...(filters.receivedTo !== undefined ? { receivedTo: filters.receivedTo } : {}),
    ...(filters.reference !== undefined ? { reference: filters.reference } : {}),
    ...(filters.waitingOnSystems !== undefined ? { waitingOnSystems: filters.waitingOnSystems } : {}),
    ...(filters.triage !== undefined ? { triage: filters.triage } : {}),
    ...(filters.identity !== undefined ? { identityKind: filters.identityKind ?? 'email' } : {}),
    ...(filters.duplicate !== undefined ? { duplicate: filters.duplicate } : {}),
    total: slice.total,
    totalExact: slice.totalExact,
  };
}

/** One workflow step with its words, as `GET /internal/v1/requests/:id/transitions/:eventId` shows it. */
export function transitionRecordOf(t: RequestTransitionEntity): TransitionRecord {
  return {
    eventId: t.eventId,
    action: t.action,
    fromStatus: t.fromStatus as RequestStatus,
    toStatus: t.toStatus as RequestStatus,
    actor: t.actor,
    occurredAt: t.occurredAt.toISOString(),
    details: t.details,
  };
}
