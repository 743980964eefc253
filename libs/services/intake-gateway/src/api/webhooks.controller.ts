import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IDEMPOTENT_REPLAYED_HEADER } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { readDecodedBody } from '@dsar/platform/http';
import type { InboundAnswer } from '../application/inbound-intake';
import { InboundWebhooks } from '../application/inbound-webhooks';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';

/**
 * The inbound webhooks behind the public `POST /api/v1/webhooks/inbound/mail`
 * and `…/chat`. They take no caller identity: the provider's signature over the
 * exact bytes is what authenticates a delivery, so the body is read here as
 * bytes (the gateway passes it on as `application/octet-stream`), never parsed
 * before the signature is checked.
 */
@Controller('internal/v1/webhooks/inbound')
export class WebhooksController {
  constructor(
    private readonly webhooks: InboundWebhooks,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  @Post('mail')
  async mail(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.webhooks.mail(req.headers, await this.bytesOf(req)));
  }

  @Post('chat')
  async chat(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.webhooks.chat(req.headers, await this.bytesOf(req)));
  }

  /** The delivery's bytes, up to HTTP_BODY_LIMIT (413). A body something parsed already has lost them: 415. */
  private async bytesOf(req: Request): Promise<Buffer> {
    if ((req as Request & { _body?: boolean })._body) {
      throw new ProblemError('UNSUPPORTED_MEDIA_TYPE', 'Send the delivery as application/octet-stream: its signature covers the exact bytes, which a parsed JSON body no longer has.');
    }
    return readDecodedBody(req, this.settings.bodyLimit);
  }
}

function send(res: Response, answer: InboundAnswer): void {
  if (answer.replayed) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(answer.status).type('application/json').send(JSON.stringify(answer.body));
}
