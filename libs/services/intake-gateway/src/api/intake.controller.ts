import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '@dsar/contracts';
import { principalOf } from '@dsar/platform/http';
import { parseIdempotencyKey } from '@dsar/platform/idempotency';
import { type CallContext, Intake, type IntakeOutcome } from '../application/intake';

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The intake endpoints behind `POST /api/v1/requests` and `POST /api/v1/requests/capture`. */
@Controller('internal/v1/requests')
export class IntakeController {
  constructor(private readonly intake: Intake) {}

  /** A request as a channel received it: answers with its id and recording time. */
  @Post()
  @HttpCode(202)
  async submit(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const outcome = await this.intake.submit(contextOf(req), body);
    send(res, outcome, ({ id, receivedAt, status }) => ({ id, receivedAt, status }));
  }

  /** A request captured by an operator: also answers with the due time counted from the channel's receipt. */
  @Post('capture')
  @HttpCode(202)
  async capture(@Req() req: Request, @Res() res: Response, @Body() body: unknown): Promise<void> {
    const outcome = await this.intake.submit(contextOf(req), body);
    send(res, outcome, ({ id, receivedAt, dueAt, status }) => ({ id, receivedAt, dueAt, status }));
  }
}

function contextOf(req: Request): CallContext {
  return {
    principal: principalOf(req),
    method: req.method,
    path: req.path,
    idempotencyKey: parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER]),
    fingerprint: single(req.headers[IDEMPOTENCY_FINGERPRINT_HEADER]),
  };
}

/** Passes lifecycle-clock's answer on: errors unchanged, success in this endpoint's shape. */
function send(res: Response, outcome: IntakeOutcome, shape: (accepted: Record<string, unknown>) => Record<string, unknown>): void {
  if (outcome.replayed) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (outcome.retryAfter) res.setHeader('Retry-After', outcome.retryAfter);
  const ok = outcome.status >= 200 && outcome.status < 300;
  res
    .status(outcome.status)
    .type(outcome.contentType)
    .send(JSON.stringify(ok ? shape(outcome.body as Record<string, unknown>) : outcome.body));
}
