/**
 * Everything a notification template can use. Dates are instants; templates
 * show them through the `date`/`datetime` helpers in the recipient's locale
 * and the configured time zone. Codes (request type, refusal reason, appeal
 * decision, verification method, delivery channel) are shown through label
 * helpers, which fall back to the raw code when they do not know it.
 */
export interface RequestSummary {
  reference: string;
  requestId: string;
  dueAt: Date;
  status: string;
}

export interface TemplateContext {
  requestId: string;
  /**
   * The reference shown: to the data subject the tagged one, e.g. "DSAR-1A2B3C4D-7K3QX9M2TR4VB"
   * (taggedRequestReference), to operators the short one, "DSAR-1A2B3C4D" (requestReference).
   */
  reference: string;
  requestType?: string;
  jurisdiction?: string;
  jurisdictionName?: string;
  /** Personal: subject kinds greet with it; operator kinds never see it. */
  recipientName?: string;
  receivedAt?: Date;
  dueAt?: Date;
  /** Free text an operator wrote for the requester (question, refusal, acknowledgement, appeal note); never in operator kinds. */
  message?: string;
  /** `appealAvailable`: the request's pack gives an appeal to the controller (the refusal offers one by reply only then). */
  refusal?: { reason: string; appealAvailable?: boolean };
  /** `reason` is free text for the requester; operator kinds do not see it. */
  extension?: { additionalDays: number; additionalMonths: number | null; reason: string | null; previousDueAt: Date; dueAt: Date };
  verification?: { methods: string[]; expiresAt: Date | null; day?: number };
  /**
   * `expiresAt`: until when the download link or access works, when known. A delivery by email also has `link`, the
   * person's download page with the link's id and credential (in delivery_prepared only), or `code`, the link's
   * one-time code (in delivery_code only): each of the two messages carries one secret, never both, and neither is
   * kept anywhere (docs/notifications.md#delivery-by-email).
   */
  delivery?: { channel: string; level: string; expiresAt?: Date; link?: string; code?: string };
  appeal?: { decision?: string; dueAt?: Date; reopened?: boolean };
  deadline?: { kind: 'response' | 'acknowledgement'; thresholdDays?: number; status?: string };
  digest?: { date: Date; atRisk: RequestSummary[]; overdue: RequestSummary[] };
  /** `subject` is the parked event's CloudEvent subject (a request id). */
  parked?: { topic: string; eventType: string; reason: string; consumer: string; subject?: string };
  failure?: { kind: string; channel: string; destination: string; error: string };
  /**
   * The data-system task a message is about (task_assigned, task_overdue, task_escalated): `dueAt` is the system's own
   * due date, `legalDueAt` the request's; `displayName` is the name its registration gives the system. Never its
   * token or the identities it carries.
   */
  task?: TaskSummary;
  /**
   * Intake marked the request as a duplicate (duplicate_marked): `of` is the request it repeats and `ofReference` that
   * request's short reference; `matchedKinds` the kinds of identity it shares with it (codes, never the identities);
   * `sameIdentityRequests` how many requests of the tenant, this one included, carry any of its identities within
   * the last `windowDays` days up to its receipt.
   */
  duplicate?: DuplicateSummary;
}

export interface DuplicateSummary {
  of: string;
  ofReference: string;
  matchedKinds: string[];
  windowDays?: number;
  sameIdentityRequests?: number;
  markedAt?: Date;
}

export interface TaskSummary {
  id: string;
  systemKey: string;
  displayName?: string;
  action: string;
  mode?: string;
  dueAt?: Date;
  legalDueAt?: Date;
  timeoutAt?: Date;
  state?: string;
}

/** The short reference (`DSAR-1A2B3C4D`) operators see: one definition in the contracts, beside the tagged one intake reads replies by. */
export { requestReference } from '@dsar/contracts';
