import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CaptureOutcome,
  type ChatWebhookAccepted,
  IntakeEventTypes,
  type InboundMessageCapturedV1,
  type InboundMessageIgnoredV1,
  type InboundReason,
  type MailWebhookAccepted,
  type NewRequestCommand,
  OPEN_STATUSES,
  type Principal,
  quotedReferences,
  type RequestDetail,
  type RequestType,
  type TriageReason,
  referenceTagMatches,
  requestReference,
  tenantSubject,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork, whileRenewingLease } from '@dsar/platform/persistence';
import type { InboundMessage } from '../domain/inbound-message';
import { fitText } from '../domain/mail-text';
import { LANGUAGE_DETECTOR, type LanguageDetector } from '../domain/language/language-detector';
import { classifyMessage, type MessageClassification } from '../domain/message-classifier';
import { commandReading } from '../domain/reading-command';
import { isKnownSender } from '../domain/reply-sender';
import { CLAIM_RENEW_MS, type InboundDecision, InboundStore } from '../infrastructure/inbound-store';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { Intake } from './intake';

/** The tenant, workspace and default jurisdiction a route gives a message. */
export interface RouteTarget {
  tenantId: string;
  workspaceId?: string;
  jurisdiction: string;
}

/** The answer to a delivery: the first one again for a repetition (`replayed`). */
export interface InboundAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** Who acts on a request for an inbound channel: the actor lifecycle-clock and the audit chain record. */
const ACTORS = { inbound_mail: 'system:inbound-mail', inbound_chat: 'system:inbound-chat' } as const;
/** The internal path of each surface's webhook: what lifecycle-clock's idempotency fingerprint covers. */
const PATHS = { inbound_mail: '/internal/v1/webhooks/inbound/mail', inbound_chat: '/internal/v1/webhooks/inbound/chat' } as const;
/** The limits of the request's text fields (contracts: intakeSource). */
const RAW_TEXT_MAX = 100_000;
/** The limit of an appeal's message (contracts: appealCommand). */
const APPEAL_TEXT_MAX = 10_000;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The request a message belongs to, how it was found, and whether intake takes it as the requester's: sent from an
 * address the request knows, in the request's thread or quoting its tagged reference. Anything else is recorded for
 * an operator to confirm and answers nothing (docs/webhooks.md#replies).
 */
interface Match {
  detail: RequestDetail;
  reason: Extract<InboundReason, 'matched_thread' | 'matched_reference'>;
  senderVerified: boolean;
}

/** What was decided before the answer is written; `senderVerified` for a reply matched to a request. */
type Verdict =
  | {
      captured: true;
      detail: Pick<RequestDetail, 'id' | 'jurisdiction' | 'workspaceId'>;
      reason: InboundReason;
      outcome: CaptureOutcome;
      requestType: RequestType | null;
      /** Why the new request's type is left to an operator; null otherwise. */
      triageReason?: TriageReason | null;
      language: string | null;
      senderVerified?: boolean;
      /** A reply to a refused request: the appeal it filed, or that it would have filed from a verified sender. */
      appeal?: { appealId: string; appealDueAt: string } | { unconfirmed: true };
    }
  | { captured: false; reason: InboundReason; language: string | null };

/**
 * Takes one signed, routed inbound message into intake (docs/webhooks.md):
 * claims its delivery (a repetition gets the first answer and changes
 * nothing), classifies it, matches a reply to its request (the thread, or a
 * quoted reference), and then answers a pending clarification (only a reply
 * of the requester's, verified), records the reply on the request's timeline
 * (verified or not), creates a request, or ignores the message;
 * the decision, its answer and its event commit together. No transaction
 * waits on lifecycle-clock: the calls come first, each with a key derived from
 * the delivery, so that a retry after a crash replays them (ADR 0022, 0026).
 */
@Injectable()
export class InboundIntake {
  constructor(
    private readonly store: InboundStore,
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly intake: Intake,
    private readonly lifecycle: LifecycleClient,
    private readonly clock: Clock,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @Inject(LANGUAGE_DETECTOR) private readonly detector: LanguageDetector,
  ) {}

  async receive(delivered: InboundMessage, route: RouteTarget, contentSha256: string): Promise<InboundAnswer> {
    // The channel cannot have received the message after we did: a provider's clock running ahead of ours counts as ours.
    const now = this.clock.now();
    const message = delivered.receivedAt.getTime() > now.getTime() ? { ...delivered, receivedAt: now } : delivered;
    const claim = await this.store.claim({
      surface: message.surface,
      deliveryId: message.deliveryId,
      provider: message.provider,
      tenantId: route.tenantId,
      workspaceId: route.workspaceId ?? null,
      jurisdiction: route.jurisdiction,
      sourceId: message.sourceId,
      contentSha256,
      receivedAt: message.receivedAt,
    });
    if (claim.kind === 'replay') return { status: claim.status, body: claim.body, replayed: true };
    try {
      return await whileRenewingLease(
        () => this.store.renew(claim.id),
        CLAIM_RENEW_MS,
        () => this.decideAndRecord(claim.id, message, route, contentSha256),
      );
    } catch (e) {
      // Nothing was decided: a repetition of the delivery starts over (and replays lifecycle-clock's answers by their keys).
      await this.store.release(claim.id).catch(() => undefined);
      throw e;
    }
  }

  private async decideAndRecord(claimId: string, message: InboundMessage, route: RouteTarget, contentSha256: string): Promise<InboundAnswer> {
    const verdict = await this.decide(message, route, contentSha256);
    const decision = this.decisionOf(claimId, message, route, verdict);
    await this.uow.run(async (tx) => {
      await this.store.complete(tx, claimId, decision);
      await this.outbox.record(tx, this.eventOf(claimId, message, route, contentSha256, verdict));
    });
    return { ...decision.answer, replayed: false };
  }

  private async decide(message: InboundMessage, route: RouteTarget, contentSha256: string): Promise<Verdict> {
    if (message.skip) return { captured: false, reason: message.skip, language: null };
    const principal: Principal = { id: ACTORS[message.surface], tenantId: route.tenantId, ...(route.workspaceId ? { workspaceId: route.workspaceId } : {}), roles: ['operator'] };
    const classification = classifyMessage(message.content, this.detector);
    const { language } = classification.reading;
    const match = await this.match(principal, route, message);
    // A reply to a refused request appeals it where the rules say so, whatever it reads as (docs/webhooks.md#appeals-by-reply).
    if (match && match.detail.status === 'refused') {
      const appealed = await this.appealByReply(principal, match, message);
      if (appealed) return { captured: true, detail: match.detail, reason: match.reason, requestType: null, language, senderVerified: match.senderVerified, ...appealed };
    }
    // A reply to an open request joins it; one to a finished request is a new request when it reads as one.
    if (match && ((OPEN_STATUSES as readonly string[]).includes(match.detail.status) || !classification.isRequest)) {
      // Only the requester's verified reply answers a pending clarification and resumes the clock.
      const answers = match.senderVerified && match.detail.status === 'clarification_pending';
      const outcome = answers ? await this.answerClarification(principal, match.detail.id, message) : 'reply_recorded';
      return { captured: true, detail: match.detail, reason: match.reason, outcome, requestType: null, language, senderVerified: match.senderVerified };
    }
    if (!classification.isRequest) return { captured: false, reason: classification.reason as InboundReason, language };
    const created = await this.intake.record(
      { principal, method: 'POST', path: PATHS[message.surface], idempotencyKey: this.keyOf(message) },
      this.commandOf(message, route, classification, contentSha256),
    );
    return {
      captured: true,
      detail: { id: created.id, jurisdiction: route.jurisdiction, workspaceId: route.workspaceId ?? null },
      reason: 'matched_subject_request',
      outcome: 'created',
      requestType: classification.reading.requestType,
      triageReason: classification.reading.triageReason,
      language,
    };
  }

  /**
   * The request a reply belongs to: by its thread (In-Reply-To, References, Slack thread), else by a reference it
   * quotes. A tagged reference whose tag is not the request's matches nothing. A short one (`DSAR-1A2B3C4D`, which
   * anyone can guess, and which emails sent before references were tagged carry) matches only a reply from an address
   * the request knows, and then only as an unverified reply.
   */
  private async match(principal: Principal, route: RouteTarget, message: InboundMessage): Promise<Match | undefined> {
    const threadRequest = await this.store.requestOfThread(route.tenantId, route.workspaceId ?? null, message.thread.answers.map(sha256));
    const inThread = threadRequest ? await this.requestOf(principal, threadRequest) : undefined;
    if (inThread) return { detail: inThread, reason: 'matched_thread', senderVerified: isKnownSender(inThread, message.contact) };
    for (const quoted of quotedReferences(message.referenceText)) {
      const referenced = await this.lifecycle.requestByReference(principal, requestReference(quoted.idPrefix));
      if (!referenced) continue;
      const knownSender = isKnownSender(referenced, message.contact);
      if (quoted.tag !== undefined) {
        if (referenceTagMatches(quoted, referenced.id, this.settings.referenceKeys)) return { detail: referenced, reason: 'matched_reference', senderVerified: knownSender };
      } else if (knownSender) {
        return { detail: referenced, reason: 'matched_reference', senderVerified: false };
      }
    }
    return undefined;
  }

  /** The request as lifecycle-clock has it; undefined when it is gone for the route's scope (purged, another workspace). */
  private async requestOf(principal: Principal, id: string): Promise<RequestDetail | undefined> {
    try {
      return await this.lifecycle.request(principal, id);
    } catch (e) {
      if (e instanceof ProblemError && e.definition.name === 'RESOURCE_NOT_FOUND') return undefined;
      throw e;
    }
  }

  /**
   * The reply as the answer to the request's pending clarification, received when the provider received it (the
   * clock resumes then). A request that moved on meanwhile, or a reply older than the question, is recorded as a reply.
   */
  private async answerClarification(principal: Principal, requestId: string, message: InboundMessage): Promise<CaptureOutcome> {
    const words = fitText(this.wordsOf(message), RAW_TEXT_MAX);
    try {
      await this.lifecycle.receiveClarification(principal, requestId, `${this.keyOf(message)}:clarification`, {
        ...(words.trim() !== '' ? { message: words } : {}),
        receivedAt: message.receivedAt.toISOString(),
      });
      return 'clarification_received';
    } catch (e) {
      if (e instanceof ProblemError && (e.definition.name === 'LIFECYCLE_TRANSITION_DISALLOWED' || e.definition.name === 'CLOCK_EVENT_OUT_OF_ORDER')) return 'reply_recorded';
      throw e;
    }
  }

  /**
   * Asks lifecycle-clock to file the reply as an appeal against the request's refusal. Undefined when the rules file
   * nothing and the reply is to be taken as any other (no appeal in the pack, received before the refusal); a reply
   * after an appeal was filed joins the timeline; an unverified sender's files nothing and is marked for operators.
   */
  private async appealByReply(principal: Principal, match: Match, message: InboundMessage): Promise<Pick<Extract<Verdict, { captured: true }>, 'outcome' | 'appeal'> | undefined> {
    const answer = await this.lifecycle.appealByReply(principal, match.detail.id, `${this.keyOf(message)}:appeal`, {
      message: fitText(this.wordsOf(message), APPEAL_TEXT_MAX),
      receivedAt: message.receivedAt.toISOString(),
      channel: message.surface === 'inbound_mail' ? 'email' : 'chat',
      senderVerified: match.senderVerified,
    });
    switch (answer.outcome) {
      case 'appeal_filed':
        return { outcome: 'appeal_filed', appeal: { appealId: answer.appealId as string, appealDueAt: answer.appealDueAt as string } };
      case 'sender_unverified':
        return { outcome: 'reply_recorded', appeal: { unconfirmed: true } };
      case 'appeal_exists':
        return { outcome: 'reply_recorded' };
      default:
        return undefined;
    }
  }

  /** The message's words as the request keeps them: an email's subject line above its text. */
  private wordsOf(message: InboundMessage): string {
    const { subject, text } = message.content;
    return subject && subject.trim() !== '' ? `${subject.trim()}\n\n${text}`.trim() : text.trim();
  }

  /** lifecycle-clock's idempotency key for what this delivery asks of it: the same on every repetition (a printable form of the delivery id). */
  private keyOf(message: InboundMessage): string {
    return `inbound:${message.surface}:${sha256(message.deliveryId)}`;
  }

  private commandOf(message: InboundMessage, route: RouteTarget, classification: MessageClassification, contentSha256: string): NewRequestCommand {
    const email = message.surface === 'inbound_mail';
    return {
      jurisdiction: route.jurisdiction,
      ...commandReading(classification.reading, undefined, true),
      intakeSource: {
        channel: email ? 'email' : 'chat',
        rawText: fitText(this.wordsOf(message), RAW_TEXT_MAX),
        receivedAt: message.receivedAt.toISOString(),
        ...(message.contact ? { contact: fitText(message.contact, 512) } : {}),
        sourceEvidence: [
          {
            type: message.evidence.type,
            reference: fitText(message.evidence.reference, 2048),
            description: email
              ? `The email as the ${message.provider} webhook delivered it; sha256 of the delivery's bytes`
              : "The Slack message as the Events API delivered it; sha256 of the delivery's bytes",
            sha256: contentSha256,
          },
          { type: 'webhook_delivery', reference: fitText(`${message.provider}:${message.deliveryId}`, 2048) },
        ],
      },
    };
  }

  private decisionOf(intakeId: string, message: InboundMessage, route: RouteTarget, verdict: Verdict): InboundDecision {
    const id = verdict.captured ? verdict.detail.id : intakeId;
    const status = verdict.captured ? 'captured' : 'ignored_non_dsar';
    const workspaceId = verdict.captured ? verdict.detail.workspaceId : (route.workspaceId ?? null);
    const answer =
      message.surface === 'inbound_mail'
        ? {
            status: 202,
            body: {
              id,
              jurisdiction: verdict.captured ? verdict.detail.jurisdiction : route.jurisdiction,
              receivedAt: message.receivedAt.toISOString(),
              sourceId: message.sourceId ?? message.deliveryId,
              status,
              tenantId: route.tenantId,
              workspaceId,
            } satisfies MailWebhookAccepted,
          }
        : {
            status: 200,
            body: {
              callbackId: message.chat?.callbackId ?? message.deliveryId,
              channelId: message.chat?.channelId ?? null,
              id,
              reason: verdict.reason,
              sourceId: message.sourceId,
              status,
              surface: 'inbound_chat',
              teamId: message.chat?.teamId ?? '',
            } satisfies ChatWebhookAccepted,
          };
    return {
      status,
      outcome: verdict.captured ? verdict.outcome : 'ignored',
      reason: verdict.reason,
      requestId: verdict.captured ? verdict.detail.id : null,
      // Later replies in the thread of this message find its request; an unverified reply's thread proves nothing later.
      threadKey: verdict.captured && verdict.senderVerified !== false && message.thread.own ? sha256(message.thread.own) : null,
      answer,
    };
  }

  /** The event of the decision: on the request's chain when it concerns one, else on the tenant's (`tenant:<id>`). */
  private eventOf(intakeId: string, message: InboundMessage, route: RouteTarget, contentSha256: string, verdict: Verdict) {
    const facts = {
      tenantId: route.tenantId,
      workspaceId: verdict.captured ? verdict.detail.workspaceId : (route.workspaceId ?? null),
      intakeId,
      surface: message.surface,
      provider: message.provider,
      deliveryId: message.deliveryId,
      sourceId: message.sourceId,
      receivedAt: message.receivedAt.toISOString(),
      contentSha256,
      language: verdict.language,
      reason: verdict.reason,
      occurredAt: this.clock.now().toISOString(),
    };
    if (verdict.captured) {
      const data: InboundMessageCapturedV1 = {
        requestId: verdict.detail.id,
        ...facts,
        outcome: verdict.outcome,
        requestType: verdict.requestType,
        ...(verdict.triageReason ? { triageReason: verdict.triageReason } : {}),
        ...(verdict.senderVerified !== undefined ? { senderVerified: verdict.senderVerified } : {}),
        ...(verdict.appeal && 'appealId' in verdict.appeal ? { appealId: verdict.appeal.appealId, appealDueAt: verdict.appeal.appealDueAt } : {}),
        ...(verdict.appeal && 'unconfirmed' in verdict.appeal ? { appealUnconfirmed: true as const } : {}),
      };
      return { type: IntakeEventTypes.messageCaptured, subject: verdict.detail.id, tenantId: route.tenantId, data };
    }
    const data: InboundMessageIgnoredV1 = facts;
    return { type: IntakeEventTypes.messageIgnored, subject: tenantSubject(route.tenantId), tenantId: route.tenantId, data };
  }
}
