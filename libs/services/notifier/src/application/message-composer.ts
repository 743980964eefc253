import { Inject, Injectable } from '@nestjs/common';
import { isInfrastructureUnavailable, ProblemError } from '@dsar/platform/errors';
import { DeliveryLinkClient, LifecycleClient } from '@dsar/platform/http';
import { type DeliveryLinkIssued, type NotificationChannel, type Principal, type RequestDetail, type RequestLocale, resolveJurisdiction, taggedRequestReference } from '@dsar/contracts';
import { shownRequestType } from '../domain/labels';
import { type RenderedMessage, renderNotification, resolveLocale } from '../domain/render';
import { requestReference, type TemplateContext } from '../domain/template-context';
import type { NotificationEntity } from '../infrastructure/notification.entity';
import { maskDestination, type OutgoingChat, type OutgoingEmail } from '../infrastructure/channels';
import { NOTIFIER_SETTINGS, type NotifierSettings, operatorSettingsOf } from '../notifier-settings';
import { notifierPrincipal } from './system-principal';

/** A message ready for its channel, or why it cannot be written. */
export type Composed = { ok: true; destination: string; email?: OutgoingEmail; chat?: OutgoingChat } | { ok: false; transient: boolean; error: string; destination: string };

/** The kinds whose words an operator wrote in the workflow step that caused them. */
const WORDED_KINDS = new Set(['request_acknowledged', 'clarification_requested', 'request_refused', 'appeal_decided']);
const UNRESOLVED = '(unresolved)';
/** The error of an attempt that found no address for the data subject: a corrected contact sends such a notification again. */
export const NO_ADDRESS_ERROR = 'the request has no email address for the data subject (requestor.email or an email contact)';
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** A failure to write a message: `transient` ones are tried again by the dispatcher. */
type Failure = { transient: boolean; error: string };

/**
 * Writes a notification for its channel at send time: for the data subject
 * it reads the request from lifecycle-clock (the address, the language, the
 * words the operator wrote), so that what was purged or corrected there is
 * what counts, and for a delivery by email asks fulfilment-delivery for the
 * link to the download page; operator messages are written from the
 * notification's facts.
 */
@Injectable()
export class MessageComposer {
  constructor(
    private readonly lifecycle: LifecycleClient,
    private readonly links: DeliveryLinkClient,
    @Inject(NOTIFIER_SETTINGS) private readonly settings: NotifierSettings,
  ) {}

  async compose(n: NotificationEntity, channel: NotificationChannel, sendId: string): Promise<Composed> {
    if (n.audience === 'subject') return this.forSubject(n, sendId);
    return n.audience === 'owner' ? this.forOwner(n, channel, sendId) : this.forOperators(n, channel, sendId);
  }

  private async forSubject(n: NotificationEntity, sendId: string): Promise<Composed> {
    if (!n.requestId) return { ok: false, transient: false, error: 'no request to write about', destination: UNRESOLVED };
    const principal = notifierPrincipal(n.tenantId, n.workspaceId);
    let detail: RequestDetail;
    let message: string | undefined;
    try {
      detail = await this.lifecycle.request(principal, n.requestId);
      if (WORDED_KINDS.has(n.kind) && n.sourceEventId) {
        const words = (await this.lifecycle.transitionOf(principal, n.requestId, n.sourceEventId))?.details?.message;
        if (typeof words === 'string' && words.trim() !== '') message = words;
      }
    } catch (e) {
      return { ok: false, ...readFailure(e), destination: UNRESOLVED };
    }
    const to = detail.requestor?.email ?? (detail.intakeSource.contact && EMAIL.test(detail.intakeSource.contact.trim()) ? detail.intakeSource.contact.trim() : undefined);
    if (!to) return { ok: false, transient: false, error: NO_ADDRESS_ERROR, destination: UNRESOLVED };
    const factual = factsContext(n);
    // Asked for once the address is known: a new link revokes the request's earlier one.
    const locale = resolveLocale(detail.locale, detail.jurisdiction);
    const delivery = await this.deliveryOf(n, principal, factual.delivery, locale);
    if (!delivery.ok) return { ok: false, transient: delivery.transient, error: delivery.error, destination: maskDestination(to) };
    const resolved = resolveJurisdiction(detail.jurisdiction);
    const reference = this.subjectReference(n.requestId);
    const context: TemplateContext = {
      ...factual,
      delivery: delivery.context,
      // A refusal recorded before the event said whether the pack gives an appeal: the current pack of the jurisdiction says.
      refusal: factual.refusal && { ...factual.refusal, appealAvailable: factual.refusal.appealAvailable ?? resolved?.pack.appeal != null },
      reference,
      requestType: shownRequestType(detail.requestType),
      jurisdiction: detail.jurisdiction,
      jurisdictionName: resolved?.binding.name,
      recipientName: detail.requestor?.name,
      receivedAt: new Date(detail.intakeSource.receivedAt),
      dueAt: dateOf(n.facts.dueAt) ?? new Date(detail.dueAt),
      message,
    };
    const rendered = renderNotification(n.kind, locale, context, {
      timeZone: resolved?.binding.timeZone ?? 'UTC',
      overrides: this.settings.tenants[n.tenantId]?.templates,
    });
    return { ok: true, destination: maskDestination(to), email: this.email(n, sendId, to, rendered, reference) };
  }

  /**
   * The delivery a message tells of. A delivery by email sends the link to the person's download page in
   * delivery_prepared and its one-time code in delivery_code: both ask fulfilment-delivery for the link of the event
   * they come from (the key), so they carry the same link and code, and a replay sends them again. The page speaks
   * the language of the emails (`locale`). Each message gets
   * its one secret in its context, and nothing else holds it: no row, no attempt, no log line.
   */
  private async deliveryOf(
    n: NotificationEntity,
    principal: Principal,
    factual: TemplateContext['delivery'],
    locale: RequestLocale,
  ): Promise<{ ok: true; context: TemplateContext['delivery'] } | ({ ok: false } & Failure)> {
    const secret = deliverySecretOf(n);
    if (!secret) return { ok: true, context: factual };
    if (!n.requestId || !n.sourceEventId) return { ok: false, transient: false, error: 'no delivery event to issue the download link for' };
    // Only the embedded runner starts without it, until its gateway listens.
    if (!this.settings.portalUrl) return { ok: false, transient: true, error: "the download page's address (PORTAL_URL) is not known yet" };
    let issued: DeliveryLinkIssued;
    try {
      issued = await this.links.issue(principal, n.requestId, { key: n.sourceEventId, language: locale });
    } catch (e) {
      return { ok: false, ...linkFailure(e) };
    }
    const shown = secret === 'link' ? { link: `${this.settings.portalUrl}#${issued.linkId}.${issued.credential}` } : { code: issued.code };
    return { ok: true, context: { channel: 'email', level: '', ...factual, expiresAt: new Date(issued.expiresAt), ...shown } };
  }

  /**
   * The reference the data subject is shown and may quote back: tagged with the reference key, so that only someone
   * who read one of these emails can quote it (docs/notifications.md#the-reference). Operators see the short one.
   */
  private subjectReference(requestId: string): string {
    return this.settings.referenceKey ? taggedRequestReference(requestId, this.settings.referenceKey) : requestReference(requestId);
  }

  private async forOperators(n: NotificationEntity, channel: NotificationChannel, sendId: string): Promise<Composed> {
    const operators = operatorSettingsOf(this.settings, n.tenantId);
    const rendered = renderNotification(n.kind, operators.locale, factsContext(n), { timeZone: operators.timeZone, overrides: this.settings.tenants[n.tenantId]?.templates });
    if (channel === 'email') {
      if (operators.emails.length === 0) return { ok: false, transient: false, error: 'the tenant has no operator email addresses any more', destination: UNRESOLVED };
      const to = operators.emails.join(', ');
      const reference = n.requestId ? requestReference(n.requestId) : undefined;
      return { ok: true, destination: operators.emails.map(maskDestination).join(', '), email: this.email(n, sendId, to, rendered, reference) };
    }
    if (!operators.slackChannel) return { ok: false, transient: false, error: 'the tenant has no operator Slack channel any more', destination: UNRESOLVED };
    return { ok: true, destination: maskDestination(operators.slackChannel), chat: { channel: operators.slackChannel, text: `*${rendered.subject}*\n${rendered.text}` } };
  }

  /**
   * To the owner of a data system, at the address the task event gave (kept on the notification): written like an
   * operator's message, in the tenant's operator language and zone, from the allow-list of operator-context.ts.
   */
  private forOwner(n: NotificationEntity, channel: NotificationChannel, sendId: string): Composed {
    const operators = operatorSettingsOf(this.settings, n.tenantId);
    const rendered = renderNotification(n.kind, operators.locale, factsContext(n), { timeZone: operators.timeZone, overrides: this.settings.tenants[n.tenantId]?.templates });
    if (channel === 'email') {
      const to = n.recipient?.email;
      if (!to) return { ok: false, transient: false, error: "the data system's owner has no email address", destination: UNRESOLVED };
      return { ok: true, destination: maskDestination(to), email: this.email(n, sendId, to, rendered, n.requestId ? requestReference(n.requestId) : undefined) };
    }
    const slackChannel = n.recipient?.slackChannel;
    if (!slackChannel) return { ok: false, transient: false, error: "the data system's owner has no Slack channel", destination: UNRESOLVED };
    return { ok: true, destination: maskDestination(slackChannel), chat: { channel: slackChannel, text: `*${rendered.subject}*\n${rendered.text}` } };
  }

  private email(n: NotificationEntity, sendId: string, to: string, rendered: RenderedMessage, reference: string | undefined): OutgoingEmail {
    return {
      to,
      from: this.settings.tenants[n.tenantId]?.sender ?? this.settings.sender,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      // One Message-ID per send, the same on every try: a receiver can tell a resend after a crash from a new message.
      messageId: sendId,
      language: rendered.locale,
      headers: reference ? { 'X-DSAR-Reference': reference } : {},
    };
  }
}

/** Which secret of a delivery by email a notification carries: the link (delivery_prepared) or its code (delivery_code). */
function deliverySecretOf(n: NotificationEntity): 'link' | 'code' | undefined {
  if (n.kind === 'delivery_code') return 'code';
  return n.kind === 'delivery_prepared' && n.facts.channel === 'email' ? 'link' : undefined;
}

/** Why the request could not be read: gone (permanent) or its owner unreachable (try later). */
function readFailure(e: unknown): Failure {
  if (e instanceof ProblemError && e.definition.name === 'RESOURCE_NOT_FOUND') return { transient: false, error: 'the request no longer exists' };
  if ((e instanceof ProblemError && e.status >= 500) || isInfrastructureUnavailable(e)) return { transient: true, error: 'lifecycle-clock could not be reached' };
  return { transient: true, error: `reading the request failed: ${(e as Error).message}`.slice(0, 300) };
}

/**
 * Why no download link could be had: the request, or its prepared and fulfilled delivery, is gone there (permanent:
 * nothing to send until an operator prepares the delivery again, which notifies anew), or fulfilment-delivery is
 * unreachable (try later).
 */
function linkFailure(e: unknown): Failure {
  if (e instanceof ProblemError && e.definition.name === 'RESOURCE_NOT_FOUND') return { transient: false, error: 'fulfilment-delivery has no such request: no download link to send' };
  if (e instanceof ProblemError && e.definition.name === 'DELIVERY_NOTHING_TO_DELIVER') return { transient: false, error: 'delivery of the request is no longer prepared: no download link to send' };
  if (e instanceof ProblemError && e.definition.name === 'LIFECYCLE_TRANSITION_DISALLOWED') return { transient: false, error: 'the request is no longer fulfilled: no download link to send' };
  if (e instanceof ProblemError && (e.status === 404 || e.status === 409)) return { transient: false, error: `fulfilment-delivery refused the download link (${e.status} ${e.definition.name})` };
  if ((e instanceof ProblemError && e.status >= 500) || isInfrastructureUnavailable(e)) return { transient: true, error: 'fulfilment-delivery could not be reached' };
  return { transient: true, error: `getting the download link failed: ${(e as Error).message}`.slice(0, 300) };
}

function dateOf(value: unknown): Date | undefined {
  return typeof value === 'string' ? new Date(value) : undefined;
}

type Row = { requestId: string; dueAt: string; status: string };

/** The facts a notification keeps from its cause (event payload fields, digest rows, parked or failed message details): codes, ids and dates only. */
interface NotificationFacts {
  /** null: the request was in triage (no type yet) when the event was recorded. */
  requestType?: string | null;
  jurisdiction?: string;
  dueAt?: string;
  reason?: string;
  previousDueAt?: string;
  additionalDays?: number;
  additionalMonths?: number;
  methods?: string[];
  day?: number;
  expiresAt?: string;
  channel?: string;
  securityLevel?: string;
  appealId?: string;
  decision?: string;
  appealDueAt?: string;
  appealAvailable?: boolean;
  reopened?: boolean;
  deadline?: 'response' | 'acknowledgement';
  thresholdDays?: number;
  status?: string;
  digestDate?: string;
  atRisk?: Row[];
  overdue?: Row[];
  topic?: string;
  eventType?: string;
  dlqReason?: string;
  consumer?: string;
  subject?: string;
  failedKind?: string;
  failedChannel?: string;
  failedDestination?: string;
  error?: string;
  /** The data-system task of task_assigned, task_overdue and task_escalated (its dates as ISO strings). */
  task?: { id: string; systemKey: string; displayName?: string; action: string; mode?: string; dueAt?: string; legalDueAt?: string; timeoutAt?: string; state?: string };
  /** duplicate_marked: the request it repeats, the kinds of identity that matched (codes), and the activity in the window. */
  duplicateOf?: string;
  matchedKinds?: string[];
  windowDays?: number;
  sameIdentityRequests?: number;
  markedAt?: string;
}

/** The template context the facts give: identifiers, codes and dates. */
export function factsContext(n: Pick<NotificationEntity, 'id' | 'requestId' | 'facts'>): TemplateContext {
  const f = n.facts as NotificationFacts;
  // A tenant-wide message (the digest) is referenced by its own id.
  const requestId = n.requestId ?? n.id;
  const rows = (list: Row[] | undefined) => (list ?? []).map((r) => ({ requestId: r.requestId, reference: requestReference(r.requestId), dueAt: new Date(r.dueAt), status: r.status }));
  return {
    requestId,
    reference: requestReference(requestId),
    requestType: shownRequestType(f.requestType),
    jurisdiction: f.jurisdiction,
    dueAt: dateOf(f.dueAt),
    refusal: f.reason !== undefined && f.previousDueAt === undefined ? { reason: f.reason, appealAvailable: f.appealAvailable } : undefined,
    extension:
      f.previousDueAt !== undefined
        ? {
            additionalDays: f.additionalDays ?? 0,
            additionalMonths: f.additionalMonths ?? null,
            reason: f.reason ?? null,
            previousDueAt: new Date(f.previousDueAt),
            dueAt: new Date(f.dueAt ?? f.previousDueAt),
          }
        : undefined,
    verification: f.methods !== undefined || f.day !== undefined || f.expiresAt !== undefined ? { methods: f.methods ?? [], expiresAt: dateOf(f.expiresAt) ?? null, day: f.day } : undefined,
    delivery: f.securityLevel !== undefined ? { channel: f.channel ?? '', level: f.securityLevel } : undefined,
    appeal: f.appealId !== undefined ? { decision: f.decision, dueAt: dateOf(f.appealDueAt), reopened: f.reopened } : undefined,
    deadline: f.deadline !== undefined ? { kind: f.deadline, thresholdDays: f.thresholdDays, status: f.status } : undefined,
    digest: f.digestDate !== undefined ? { date: new Date(f.digestDate), atRisk: rows(f.atRisk), overdue: rows(f.overdue) } : undefined,
    parked: f.topic !== undefined ? { topic: f.topic, eventType: f.eventType ?? '', reason: f.dlqReason ?? '', consumer: f.consumer ?? '', subject: f.subject } : undefined,
    failure: f.failedKind !== undefined ? { kind: f.failedKind, channel: f.failedChannel ?? '', destination: f.failedDestination ?? '', error: f.error ?? '' } : undefined,
    task:
      f.task !== undefined
        ? {
            id: f.task.id,
            systemKey: f.task.systemKey,
            displayName: f.task.displayName,
            action: f.task.action,
            mode: f.task.mode,
            dueAt: dateOf(f.task.dueAt),
            legalDueAt: dateOf(f.task.legalDueAt),
            timeoutAt: dateOf(f.task.timeoutAt),
            state: f.task.state,
          }
        : undefined,
    duplicate:
      f.duplicateOf !== undefined
        ? {
            of: f.duplicateOf,
            ofReference: requestReference(f.duplicateOf),
            matchedKinds: f.matchedKinds ?? [],
            windowDays: f.windowDays,
            sameIdentityRequests: f.sameIdentityRequests,
            markedAt: dateOf(f.markedAt),
          }
        : undefined,
  };
}
