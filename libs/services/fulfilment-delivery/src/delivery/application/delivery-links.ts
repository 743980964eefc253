import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { z } from 'zod';
import {
  DeliveryEventTypes,
  isUuid,
  type DeliveryLinkIssueCommand,
  type DeliveryLinkIssued,
  type PortalDelivery,
  type PortalSession,
  type Principal,
  requestReference,
  REQUEST_LOCALES,
  type RequestDetail,
  type RequestLocale,
  type stepUpCompletedV1,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { type FileConditions, INTERNAL_AUTH, type InternalAuthKey } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { DELIVERY_SETTINGS, type DeliverySettings, deliverySettingsFrom } from '../delivery-settings';
import { codeMatches, linkGone, linkSecrets, linkState, newLinkSalt, newPortalSession } from '../domain/delivery-link';
import { outcomeAfterFailure } from '../domain/step-up-gate';
import { hashStepUpToken, stepUpTokenMatches } from '../domain/step-up-token';
import { DeliveryPreparationEntity } from '../infrastructure/delivery-preparation.entity';
import { StepUpChallengeEntity } from '../infrastructure/step-up-challenge.entity';
import { type ArtifactBytes, ArtifactDelivery } from './artifact-delivery';
import { DeliverableArtifacts } from './deliverable-artifacts';
import { type DeliveryFacts, DeliveryLog } from './delivery-log';
import { DeliveryRequests } from './delivery-requests';
import { StepUp } from './step-up';

type Facts<T extends z.ZodType> = Omit<z.infer<T>, keyof DeliveryFacts>;

/** Who acts through the person's download page: the holder of a link, in its request's tenant and workspace. */
export const PORTAL_ACTOR = 'subject:download-page';

function portalPrincipal(link: StepUpChallengeEntity): Principal {
  // It reads the request from lifecycle-clock as the delivery steps of an operator do; it can do nothing else.
  return { id: PORTAL_ACTOR, tenantId: link.tenantId, ...(link.workspaceId ? { workspaceId: link.workspaceId } : {}), roles: ['operator'] };
}

function factsOf(link: StepUpChallengeEntity): DeliveryFacts {
  return { requestId: link.requestId, tenantId: link.tenantId, workspaceId: link.workspaceId };
}

const linkInvalid = () => new ProblemError('DELIVERY_LINK_INVALID', 'This link is not known, or it is incomplete: open it again from the email, whole.');
const wrongCode = (left: number) => new ProblemError('STEP_UP_TOKEN_INVALID', `This is not the link's code: ${left} ${left === 1 ? 'try' : 'tries'} left before it locks.`);
const locked = () => new ProblemError('STEP_UP_LOCKED', 'Too many wrong codes: this link is locked. Ask for a new link.');
const used = () => new ProblemError('DELIVERY_LINK_USED', "The link's code was already entered: a link opens once, in one browser. Ask for a new link.");
function gone(why: 'expired' | 'revoked' | 'session_ended'): ProblemError {
  const words = { expired: 'This link has expired', revoked: 'This link was replaced by a newer one', session_ended: 'The download session has ended' };
  return new ProblemError('DELIVERY_LINK_EXPIRED', `${words[why]}: ask for a new link.`);
}

/**
 * The links of the person's download page (docs/delivery.md). A link is a step-up challenge issued for the person at
 * the notifier's request, which sends its credential in one email and its code in another. Both are derived from the
 * challenge's salt with the internal auth key (delivery-link.ts), so the notifier asking again for the same event
 * gets them again, and neither is stored. Issuing a link revokes the request's current challenge, as a challenge of
 * the API does. The code completes the challenge once, as the API's token does, counting wrong codes the same way
 * (STEP_UP_MAX_FAILURES locks it); its completion answers a session, stored as its SHA-256, that opens the downloads
 * until the link expires. Every try is in the delivery log and on the delivery topic, as the API's are.
 */
@Injectable()
export class DeliveryLinks {
  private readonly settings: DeliverySettings;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly requests: DeliveryRequests,
    private readonly log: DeliveryLog,
    private readonly stepUp: StepUp,
    private readonly artifacts: DeliverableArtifacts,
    private readonly downloads: ArtifactDelivery,
    @Inject(INTERNAL_AUTH) private readonly key: InternalAuthKey,
    @Optional() @Inject(DELIVERY_SETTINGS) settings?: DeliverySettings,
  ) {
    this.settings = settings ?? deliverySettingsFrom({});
  }

  /**
   * The link for one notification event of the request (the notifier's `key`): the one issued for it before, or a new
   * one that revokes the current challenge. Only for a fulfilled request whose delivery was prepared.
   */
  async issue(principal: Principal, requestId: string, command: DeliveryLinkIssueCommand): Promise<DeliveryLinkIssued> {
    const detail = await this.requests.collectable(principal, requestId, 'issue_delivery_link');
    const link = await this.uow.run(async (tx) => {
      const prepared = await tx.findOne(DeliveryPreparationEntity, { where: { requestId: detail.id, tenantId: detail.tenantId }, lock: { mode: 'pessimistic_write' } });
      if (!prepared) return null;
      const earlier = await tx.findOne(StepUpChallengeEntity, { where: { tenantId: detail.tenantId, requestId: detail.id, linkKey: command.key } });
      if (earlier) return earlier;
      const now = this.clock.now();
      const id = randomUUID();
      const salt = newLinkSalt();
      const facts = { requestId: detail.id, tenantId: detail.tenantId, workspaceId: detail.workspaceId };
      const row: StepUpChallengeEntity = {
        ...this.stepUp.newChallenge(id, facts, hashStepUpToken(linkSecrets(this.key, id, salt).credential), principal.id, now),
        linkKey: command.key,
        linkSalt: salt,
        linkLanguage: command.language ?? pageLanguage(detail.locale),
        sessionHash: null,
        sessionExpiresAt: null,
      };
      await this.stepUp.replaceCurrent(tx, facts, row, `a link of the download page, sent to the person by email; expires ${row.expiresAt.toISOString()}`);
      return row;
    });
    if (!link) throw new ProblemError('DELIVERY_NOTHING_TO_DELIVER', `Delivery of request ${requestId} has not been prepared: prepare it first (POST …/delivery/prepare).`);
    const { credential, code } = linkSecrets(this.key, link.id, link.linkSalt as string);
    return { requestId: link.requestId, linkId: link.id, credential, code, expiresAt: link.expiresAt.toISOString() };
  }

  /** What the page shows before the code: no personal data. 404 for an unknown link or a wrong credential, 410 once it is gone. */
  async view(linkId: string, credential: string | undefined): Promise<PortalDelivery> {
    const link = await this.find(linkId, credential);
    const why = linkGone(link, this.clock.now());
    if (why) throw gone(why);
    return {
      linkId: link.id,
      reference: requestReference(link.requestId),
      language: pageLanguage(link.linkLanguage),
      expiresAt: link.expiresAt.toISOString(),
      state: linkState(link),
      attemptsLeft: Math.max(0, link.maxFailures - link.failures),
    };
  }

  /**
   * The person's code: the session and the files on the first right code; a wrong one is counted (401, and 403 on the
   * one that reaches the limit); a link already opened is a 409, a gone one a 410. Refusals are committed (counted,
   * logged, published) before they are answered.
   */
  async enterCode(linkId: string, credential: string | undefined, code: string): Promise<PortalSession> {
    const link = await this.find(linkId, credential);
    const principal = portalPrincipal(link);
    const facts = factsOf(link);
    const now = this.clock.now();
    const before = refusalOf(link, now);
    if (before) return this.refused(principal, link, now, before);
    const detail = await this.requests.collectable(principal, link.requestId, 'open_delivery_link');
    const files = await this.artifacts.currentOf(detail.tenantId, detail.id);
    if (files.length === 0) throw new ProblemError('DELIVERY_NOTHING_TO_DELIVER', `Request ${detail.id} has nothing to deliver any more.`);
    const expected = linkSecrets(this.key, link.id, link.linkSalt as string).code;
    if (!codeMatches(expected, code)) return this.wrongCode(principal, link, now);
    const session = newPortalSession();
    const opened = await this.uow.run(async (tx) => {
      const done = await tx
        .createQueryBuilder()
        .update(StepUpChallengeEntity)
        .set({ completedAt: now, completedBy: principal.id, sessionHash: hashStepUpToken(session), sessionExpiresAt: link.expiresAt })
        .where('id = :id AND completed_at IS NULL AND revoked_at IS NULL AND failures < max_failures', { id: link.id })
        .returning(['id'])
        .execute();
      if ((done.raw as unknown[]).length === 0) return false;
      await this.log.recordTry(tx, facts, DeliveryEventTypes.stepUpCompleted, { actor: principal.id, occurredAt: now.toISOString(), challengeId: link.id } satisfies Facts<typeof stepUpCompletedV1>, {
        outcome: 'ok',
        actor: principal.id,
        at: now,
        challengeId: link.id,
        detail: 'the person entered the code on the download page',
      });
      return true;
    });
    if (!opened) {
      // A concurrent try opened, locked or replaced it meanwhile: decide on the row as it is now.
      const now2 = this.clock.now();
      const current = await this.uow.manager.findOne(StepUpChallengeEntity, { where: { id: link.id } });
      return this.refused(principal, current ?? link, now2, (current && refusalOf(current, now2)) || 'used');
    }
    return {
      linkId: link.id,
      session,
      sessionExpiresAt: link.expiresAt.toISOString(),
      artifacts: files.map(({ artifactId, filename, title, contentType, size, sha256 }) => ({ artifactId, filename, title, contentType, size, sha256 })),
    };
  }

  /**
   * A file of the link's request for the session its code answered. A missing or wrong session is a 401 (logged as a
   * refused download); an ended one, or a link replaced since, a 410.
   */
  async download(linkId: string, session: string | undefined, artifactId: string, conditions: FileConditions): Promise<ArtifactBytes> {
    const link = await this.byId(linkId);
    if (!link) throw linkInvalid();
    const principal = portalPrincipal(link);
    const now = this.clock.now();
    const presented = session !== undefined && session.trim() !== '';
    if (!presented || !link.sessionHash || !stepUpTokenMatches(link.sessionHash, session)) {
      await this.uow.run((tx) =>
        this.stepUp.refuse(
          tx,
          factsOf(link),
          principal,
          now,
          'download',
          presented ? 'wrong_token' : 'missing_token',
          link,
          link.failures,
          `artifact ${artifactId}: ${presented ? 'not the session of the link' : 'no session'} (download page)`,
        ),
      );
      throw new ProblemError(
        'STEP_UP_TOKEN_INVALID',
        presented
          ? 'This is not the session of the link: enter the code again on the page the link opens.'
          : 'No session was sent (x-portal-session): enter the code on the page the link opens first.',
      );
    }
    if (link.revokedAt) throw gone('revoked');
    if (now.getTime() >= (link.sessionExpiresAt as Date).getTime()) throw gone('session_ended');
    const detail: RequestDetail = await this.requests.read(principal, link.requestId);
    return this.downloads.bytesOfLink(principal, detail, link, artifactId, conditions);
  }

  /** The link named by `linkId` whose credential was sent; 404 for anything else, the same whatever was wrong. */
  private async find(linkId: string, credential: string | undefined): Promise<StepUpChallengeEntity> {
    const link = await this.byId(linkId);
    if (!link || !credential || !stepUpTokenMatches(link.tokenHash, credential)) throw linkInvalid();
    return link;
  }

  private async byId(linkId: string): Promise<StepUpChallengeEntity | null> {
    if (!isUuid(linkId)) return null;
    const link = await this.uow.manager.findOne(StepUpChallengeEntity, { where: { id: linkId.toLowerCase() } });
    return link?.linkSalt ? link : null;
  }

  /** Records a refused code entry (a used link is only logged: it is the link's own holder coming back) and throws its problem. */
  private async refused(principal: Principal, link: StepUpChallengeEntity, now: Date, why: 'expired' | 'revoked' | 'locked' | 'used'): Promise<never> {
    await this.uow.run(async (tx) => {
      if (why === 'used') {
        await this.log.append(tx, factsOf(link), {
          eventType: DeliveryEventTypes.stepUpCompleted,
          eventId: null,
          outcome: 'already_completed',
          actor: principal.id,
          at: now,
          challengeId: link.id,
          detail: 'the code was entered again on the download page: the link was already opened',
        });
        return;
      }
      const words = { expired: `the link expired at ${link.expiresAt.toISOString()}`, revoked: 'the link was replaced by a newer one', locked: `locked after ${link.failures} wrong codes` };
      await this.stepUp.refuse(tx, factsOf(link), principal, now, 'completion', why, link, link.failures, `${words[why]} (download page)`);
    });
    throw why === 'used' ? used() : why === 'locked' ? locked() : gone(why);
  }

  /** Counts a wrong code atomically (concurrent ones all count), logs and publishes it, and throws 401, or 403 once locked. */
  private async wrongCode(principal: Principal, link: StepUpChallengeEntity, now: Date): Promise<never> {
    const outcome = await this.uow.run(async (tx) => {
      const failures = await this.stepUp.countFailure(tx, link.id, true);
      if (failures === undefined) return undefined;
      const answer = outcomeAfterFailure(failures, link.maxFailures);
      const why = `a wrong code on the download page; failure ${failures} of ${link.maxFailures}${answer === 'locked' ? ', the link is now locked' : ''}`;
      await this.stepUp.refuse(tx, factsOf(link), principal, now, 'completion', 'wrong_token', { ...link, failures }, failures, why);
      return { answer, left: link.maxFailures - failures };
    });
    if (!outcome) {
      // Locked, opened or replaced by a concurrent try: answered as the link is now.
      const current = (await this.uow.manager.findOne(StepUpChallengeEntity, { where: { id: link.id } })) ?? link;
      return this.refused(principal, current, now, refusalOf(current, now) ?? 'locked');
    }
    throw outcome.answer === 'locked' ? locked() : wrongCode(outcome.left);
  }
}

/** Why a code cannot be taken now, before it is checked: the link is gone, locked or used. */
function refusalOf(link: StepUpChallengeEntity, now: Date): 'expired' | 'revoked' | 'locked' | 'used' | undefined {
  const gone = linkGone(link, now);
  if (gone) return gone;
  const state = linkState(link);
  return state === 'code_required' ? undefined : state;
}

/** The language when it is one the page speaks (the request's, or what a link row holds), else English. */
function pageLanguage(value: string | null | undefined): RequestLocale {
  return (REQUEST_LOCALES as readonly string[]).includes(value ?? '') ? (value as RequestLocale) : 'en';
}
