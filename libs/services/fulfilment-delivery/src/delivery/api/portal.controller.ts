import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DELIVERY_LINK_HEADER, PORTAL_SESSION_HEADER, portalCodeCommand } from '@dsar/contracts';
import { fileConditionsOf, parseInput } from '@dsar/platform/http';
import { DeliveryLinks } from '../application/delivery-links';
import { sendArtifactBytes, single } from './delivery.controller';

type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * The person's download page's API (docs/delivery.md); the gateway exposes it under /api/v1/portal/… without a token,
 * limited per client address. No caller is signed in: the link's credential, then the session its code answered,
 * is what lets a call through.
 */
@Controller('internal/v1/portal/deliveries/:linkId')
export class PortalController {
  constructor(private readonly links: DeliveryLinks) {}

  @Get()
  view(@Param('linkId') linkId: string, @Headers() headers: HeaderBag) {
    return this.links.view(linkId, single(headers[DELIVERY_LINK_HEADER]));
  }

  /** Not idempotent: the answer holds the session, shown once; a link opens once. */
  @Post('code')
  @HttpCode(200)
  code(@Param('linkId') linkId: string, @Headers() headers: HeaderBag, @Body() body: unknown) {
    const credential = single(headers[DELIVERY_LINK_HEADER]);
    return this.links.enterCode(linkId, credential, parseInput(portalCodeCommand, body).code);
  }

  @Get('artifacts/:artifactId')
  async download(@Param('linkId') linkId: string, @Param('artifactId') artifactId: string, @Headers() headers: HeaderBag, @Res() res: Response): Promise<void> {
    await sendArtifactBytes(res, await this.links.download(linkId, single(headers[PORTAL_SESSION_HEADER]), artifactId, fileConditionsOf(headers)));
  }
}
