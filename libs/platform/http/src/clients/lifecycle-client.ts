import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AppealByReplyCommand,
  type AppealByReplyResult,
  type ClarificationReceiveCommand,
  IDEMPOTENCY_FINGERPRINT_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  INTERNAL_API_PREFIX,
  type LifecycleResult,
  type NewRequestCommand,
  type PolicyUsage,
  type Principal,
  type QueuePage,
  type RequestDetail,
  type TransitionRecord,
  type VerificationTransitionCommand,
} from '@dsar/contracts';
import { callService, type InternalResponse, UPSTREAM_URLS, type UpstreamUrls } from '../internal-client';
import { INTERNAL_AUTH, InternalAuthKey } from '../internal-identity';
import { upstreamProblem } from '../upstream-problem';

const OWNER = 'lifecycle-clock';

/**
 * lifecycle-clock's internal commands for the services that move a request for it (only the owner changes a
 * request's status and clock): verification's and fulfilment-delivery's.
 */
export type LifecycleTransition = 'verification-requested' | 'verification-approved' | 'verification-rejected' | 'fulfilled';

/** How long a call waits for the same key's first call, still running in lifecycle-clock, before giving up. */
const IN_PROGRESS_RETRIES = 20;
const IN_PROGRESS_WAIT_MS = 250;

/** An idempotency key with the fingerprint of what the client sent under it (intake's, computed before normalizing). */
export interface KeyedCall {
  key: string;
  fingerprint: string;
}

/**
 * A service's calls to lifecycle-clock, made for the caller (its identity
 * signed for each call; the request id and trace context of the request being
 * served go with it, `callService`). Every command carries an idempotency key the caller
 * derives from its own record (`verification:<caseId>:approve`,
 * `fulfilment:<requestId>:v<manifestVersion>:<round>`), so that a retry after
 * a crash replays lifecycle-clock's first answer instead of moving the
 * request twice (ADR 0022). A service that uses it lists `lifecycle-clock` in
 * its `calls`.
 */
@Injectable()
export class LifecycleClient {
  constructor(
    @Inject(UPSTREAM_URLS) private readonly upstreams: UpstreamUrls,
    @Inject(INTERNAL_AUTH) private readonly internalAuth: InternalAuthKey,
  ) {}

  /** The request as its owner has it: 404 for another tenant's, as lifecycle-clock answers. */
  async request(principal: Principal, id: string): Promise<RequestDetail> {
    const res = await this.call(principal, 'GET', `/requests/${encodeURIComponent(id)}`);
    if (res.status !== 200) throw upstreamProblem(OWNER, res);
    return JSON.parse(res.body.toString('utf8')) as RequestDetail;
  }

  /**
   * The request a reference names (`DSAR-1A2B3C4D`: the first eight hex digits of its id) in the caller's scope; null
   * when lifecycle-clock answers 404: no request of the scope, or more than one, has that reference.
   */
  async requestByReference(principal: Principal, reference: string): Promise<RequestDetail | null> {
    const res = await this.call(principal, 'GET', `/requests/references/${encodeURIComponent(reference)}`);
    if (res.status === 200) return JSON.parse(res.body.toString('utf8')) as RequestDetail;
    const problem = upstreamProblem(OWNER, res);
    if (res.status === 404 && problem.definition.name === 'RESOURCE_NOT_FOUND') return null;
    throw problem;
  }

  /**
   * The workflow step of request `requestId` that emitted event `eventId`, with its words (the clarification
   * question, the refusal notice, …): what a service that writes to the requester sends. Null when lifecycle-clock
   * answers 404 RESOURCE_NOT_FOUND: another tenant's (or workspace's) request, or an event that is not one of its
   * steps. Any other failure (a lifecycle-clock without the route included) is its problem, as for `request`.
   */
  async transitionOf(principal: Principal, requestId: string, eventId: string): Promise<TransitionRecord | null> {
    const res = await this.call(principal, 'GET', `/requests/${encodeURIComponent(requestId)}/transitions/${encodeURIComponent(eventId)}`);
    if (res.status === 200) return JSON.parse(res.body.toString('utf8')) as TransitionRecord;
    const problem = upstreamProblem(OWNER, res);
    if (res.status === 404 && problem.definition.name === 'RESOURCE_NOT_FOUND') return null;
    throw problem;
  }

  /** A page of the caller's queue (`queueQuery`: limit, offset, status, sortBy, sortOrder, atRiskDays), as `GET /requests` answers it. */
  async queue(principal: Principal, query: Record<string, string | number>): Promise<QueuePage> {
    const params = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
    const search = params.size > 0 ? `?${params.toString()}` : '';
    const res = await this.call(principal, 'GET', `/requests${search}`);
    if (res.status !== 200) throw upstreamProblem(OWNER, res);
    return JSON.parse(res.body.toString('utf8')) as QueuePage;
  }

  async transition(principal: Principal, id: string, transition: LifecycleTransition, key: string, command: VerificationTransitionCommand = {}): Promise<LifecycleResult> {
    return this.command(principal, `/requests/${encodeURIComponent(id)}/lifecycle/${transition}`, key, command);
  }

  /** The requester's answer to a pending clarification, as an inbound channel received it (intake-gateway's webhooks). */
  receiveClarification(principal: Principal, id: string, key: string, command: ClarificationReceiveCommand): Promise<LifecycleResult> {
    return this.command(principal, `/requests/${encodeURIComponent(id)}/clarifications/receive`, key, command);
  }

  /**
   * A reply to a request, as an inbound channel received it, for lifecycle-clock to file as an appeal against its
   * refusal where the rules say so (docs/webhooks.md#appeals-by-reply); the answer says what it made of it.
   */
  appealByReply(principal: Principal, id: string, key: string, command: AppealByReplyCommand): Promise<AppealByReplyResult> {
    return this.command<AppealByReplyResult>(principal, `/requests/${encodeURIComponent(id)}/appeals/by-reply`, key, command);
  }

  /** How many open requests of the caller's scope pin each pack version (policy-registry's upgrade proposals). */
  async policyUsage(principal: Principal): Promise<PolicyUsage[]> {
    const res = await this.call(principal, 'GET', '/requests/policy-usage');
    if (res.status !== 200) throw upstreamProblem(OWNER, res);
    return JSON.parse(res.body.toString('utf8')) as PolicyUsage[];
  }

  /**
   * Has lifecycle-clock record a new request (intake's), under an idempotency key when the call has one. The answer
   * comes back as lifecycle-clock gave it, problems included, for intake to pass on to its client.
   */
  createRequest(principal: Principal, command: NewRequestCommand, keyed?: KeyedCall): Promise<InternalResponse> {
    const idempotency: Record<string, string> = keyed ? { [IDEMPOTENCY_KEY_HEADER]: keyed.key, [IDEMPOTENCY_FINGERPRINT_HEADER]: keyed.fingerprint } : {};
    return this.call(principal, 'POST', '/requests', command, idempotency);
  }

  /** A command with its idempotency key; a call that finds the same key's first call still running waits for its answer. */
  private async command<T = LifecycleResult>(principal: Principal, path: string, key: string, command: object): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.call(principal, 'POST', path, command, { [IDEMPOTENCY_KEY_HEADER]: key });
      if (res.status === 202) return JSON.parse(res.body.toString('utf8')) as T;
      const problem = upstreamProblem(OWNER, res);
      // Another call with the same key is running there (a concurrent retry): wait for its answer.
      if (problem.definition.name !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS' || attempt >= IN_PROGRESS_RETRIES) throw problem;
      await sleep(IN_PROGRESS_WAIT_MS);
    }
  }

  /** One call for `principal`, its identity signed for exactly this method and path; `headers` add to the JSON ones. */
  private call(principal: Principal, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<InternalResponse> {
    return callService(OWNER, this.upstreams[OWNER], {
      method,
      path: `${INTERNAL_API_PREFIX}${path}`,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      identity: { key: this.internalAuth, principal },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  }
}
