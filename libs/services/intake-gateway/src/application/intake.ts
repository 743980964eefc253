import { Inject, Injectable } from '@nestjs/common';
import { IDEMPOTENT_REPLAYED_HEADER, intakePayload, type NewRequestCommand, type Principal } from '@dsar/contracts';
import { type InternalResponse, LifecycleClient, parseInput, upstreamProblem } from '@dsar/platform/http';
import { requestFingerprint } from '@dsar/platform/idempotency';
import { LANGUAGE_DETECTOR, type LanguageDetector } from '../domain/language/language-detector';
import { readLetter } from '../domain/letter-reading';
import { commandReading } from '../domain/reading-command';

/**
 * What of the incoming call travels on to lifecycle-clock: the caller, and the idempotency key with what it is the
 * key of. The request id and trace context go on by themselves (the request context, `callService`).
 */
export interface CallContext {
  principal: Principal;
  method: string;
  path: string;
  idempotencyKey?: string;
  fingerprint?: string;
}

export interface IntakeOutcome {
  status: number;
  contentType: string;
  body: unknown;
  replayed: boolean;
  /** lifecycle-clock's Retry-After, passed on with a 503 or 429. */
  retryAfter?: string;
}

/**
 * Takes a request in: validates the intake payload, reads the requester's
 * words (every right asked, the language, an agent's letter), settles its type
 * (the client's, else the reading's, else none: triage) and has
 * lifecycle-clock, the owner of the request, record it and start its clock.
 */
@Injectable()
export class Intake {
  constructor(
    private readonly lifecycle: LifecycleClient,
    @Inject(LANGUAGE_DETECTOR) private readonly detector: LanguageDetector,
  ) {}

  normalize(body: unknown): NewRequestCommand {
    const payload = parseInput(intakePayload, body);
    // Read the words always: the rights asked and the language are wanted also when the client named the type.
    const reading = readLetter(payload.intakeSource.rawText, this.detector);
    return {
      jurisdiction: payload.jurisdiction,
      ...commandReading(reading, payload.requestType, payload.requestor === undefined && payload.authority === undefined),
      intakeSource: payload.intakeSource,
      ...(payload.requestor ? { requestor: payload.requestor } : {}),
      ...(payload.authority ? { authority: payload.authority } : {}),
      ...(payload.receivedAt ? { receivedAt: payload.receivedAt } : {}),
      ...(payload.clockMode ? { clockMode: payload.clockMode } : {}),
    };
  }

  async submit(ctx: CallContext, body: unknown): Promise<IntakeOutcome> {
    const command = this.normalize(body);
    // The key is about what the client sent, not the normalized command.
    const res = await this.send(ctx, command, ctx.fingerprint ?? requestFingerprint(ctx.method, ctx.path, body));
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? 'application/json',
      body: JSON.parse(res.body.toString('utf8') || 'null'),
      replayed: res.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
      retryAfter: res.headers.get('retry-after') ?? undefined,
    };
  }

  /**
   * A request whose command intake built itself, from a message of an inbound channel (the webhooks): recorded by
   * lifecycle-clock under the context's idempotency key, or lifecycle-clock's problem thrown.
   */
  async record(ctx: CallContext, command: NewRequestCommand): Promise<{ id: string; receivedAt: string; dueAt: string; status: string }> {
    const res = await this.send(ctx, command, requestFingerprint(ctx.method, ctx.path, command));
    if (res.status !== 202) throw upstreamProblem('lifecycle-clock', res);
    return JSON.parse(res.body.toString('utf8')) as { id: string; receivedAt: string; dueAt: string; status: string };
  }

  /** Has lifecycle-clock record the command, for the caller (its identity signed again, ADR 0020), under its idempotency key when it has one. */
  private send(ctx: CallContext, command: NewRequestCommand, fingerprint: string): Promise<InternalResponse> {
    return this.lifecycle.createRequest(ctx.principal, command, ctx.idempotencyKey !== undefined ? { key: ctx.idempotencyKey, fingerprint } : undefined);
  }
}
