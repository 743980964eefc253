import { IDENTITY_KINDS, type IdentityKind } from '@dsar/contracts';
import type { RequestSummary, TemplateContext } from './template-context';

/**
 * Operator notifications go to shared inboxes and chat channels, so they are
 * built from an allow-list of the context: references, codes, dates and
 * counts. Names, free text written for the requester and the reasons given to
 * them are left out, whatever the template (built-in or a tenant's) asks for.
 * Destinations and error texts are masked because a failed email's address
 * or a webhook URL with its secret would otherwise end up in the channel.
 */
export function operatorContext(context: TemplateContext): TemplateContext {
  const c = context;
  return {
    requestId: c.requestId,
    reference: c.reference,
    requestType: c.requestType,
    jurisdiction: c.jurisdiction,
    jurisdictionName: c.jurisdictionName,
    receivedAt: c.receivedAt,
    dueAt: c.dueAt,
    refusal: c.refusal && { reason: c.refusal.reason },
    extension: c.extension && { ...c.extension, reason: null },
    verification: c.verification && { methods: c.verification.methods, expiresAt: c.verification.expiresAt, day: c.verification.day },
    // Never a delivery's link or its code: they open the person's data.
    delivery: c.delivery && { channel: c.delivery.channel, level: c.delivery.level, expiresAt: c.delivery.expiresAt },
    appeal: c.appeal && { decision: c.appeal.decision, dueAt: c.appeal.dueAt, reopened: c.appeal.reopened },
    deadline: c.deadline && { kind: c.deadline.kind, thresholdDays: c.deadline.thresholdDays, status: c.deadline.status },
    digest: c.digest && { date: c.digest.date, atRisk: summaries(c.digest.atRisk), overdue: summaries(c.digest.overdue) },
    parked: c.parked && {
      topic: c.parked.topic,
      eventType: c.parked.eventType,
      reason: maskText(c.parked.reason),
      consumer: c.parked.consumer,
      subject: c.parked.subject,
    },
    task: c.task && {
      id: c.task.id,
      systemKey: c.task.systemKey,
      displayName: c.task.displayName,
      action: c.task.action,
      mode: c.task.mode,
      dueAt: c.task.dueAt,
      legalDueAt: c.task.legalDueAt,
      timeoutAt: c.task.timeoutAt,
      state: c.task.state,
    },
    duplicate: c.duplicate && {
      of: c.duplicate.of,
      ofReference: c.duplicate.ofReference,
      // Codes of the contract only: whatever else the facts held is not shown.
      matchedKinds: c.duplicate.matchedKinds.filter(isIdentityKind),
      windowDays: c.duplicate.windowDays,
      sameIdentityRequests: c.duplicate.sameIdentityRequests,
      markedAt: c.duplicate.markedAt,
    },
    failure: c.failure && {
      kind: c.failure.kind,
      channel: c.failure.channel,
      destination: maskDestination(c.failure.destination),
      error: maskText(c.failure.error),
    },
  };
}

function isIdentityKind(value: unknown): value is IdentityKind {
  return (IDENTITY_KINDS as readonly unknown[]).includes(value);
}

function summaries(list: readonly RequestSummary[] | undefined): RequestSummary[] {
  return (list ?? []).map((r) => ({ reference: r.reference, requestId: r.requestId, dueAt: r.dueAt, status: r.status }));
}

const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/g;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;
const MAX_TEXT = 500;

/**
 * Enough of a destination to tell which one failed, not enough to contact
 * the person: `jane@example.com` → `j***@e***.com`, `+49 170 1234567` →
 * `***567`, a webhook URL → its origin (the path holds the secret). Anything
 * else (a Slack channel name or id) is an operator's own address and stays.
 */
export function maskDestination(destination: string | undefined | null): string {
  if (!destination) return '';
  const value = destination.trim();
  if (/^[^\s@]+@[^\s@]+$/.test(value)) return maskEmail(value);
  if (/^https?:\/\//i.test(value)) return maskUrl(value);
  const digits = value.replace(/\D/g, '');
  if (/^[+\d\s().-]+$/.test(value) && digits.length >= 6) return `***${digits.slice(-3)}`;
  return value;
}

/** Free text from infrastructure (an SMTP answer, a parking reason), with addresses and URLs masked and its length capped. */
export function maskText(text: string | undefined | null): string {
  if (!text) return '';
  const masked = text.replace(URL_PATTERN, (u) => maskUrl(u)).replace(EMAIL, (e) => maskEmail(e));
  return masked.length > MAX_TEXT ? `${masked.slice(0, MAX_TEXT)}…` : masked;
}

function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
}

function maskUrl(url: string): string {
  try {
    return `${new URL(url).origin}/***`;
  } catch {
    return '***';
  }
}
