import { pipeline } from 'node:stream/promises';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { addressVerifyCommand, DELIVERY_TOKEN_HEADER, deliveryLinkIssueCommand, deliveryPrepareCommand, type Principal, stepUpCompleteCommand } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { acceptedMediaType, contentDisposition, contentRange, CurrentPrincipal, fileConditionsOf, optionalBody, parseInput } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { type ArtifactBytes, ArtifactDelivery } from '../application/artifact-delivery';
import { DeliveryLinks } from '../application/delivery-links';
import { DeliveryLog } from '../application/delivery-log';
import { DeliveryPreparations } from '../application/delivery-preparations';
import { DeliveryRequests } from '../application/delivery-requests';
import { StepUp } from '../application/step-up';

/** The media type that asks a download for the bytes instead of the metadata. */
export const DELIVERY_BYTES_MEDIA_TYPE = 'application/octet-stream';

/**
 * Delivery's internal API; the gateway exposes it under /api/v1/requests/:id/…
 * Every handler reads the request from lifecycle-clock first (another
 * tenant's is a 404) and keeps its writes in short transactions of its own,
 * never across that call (ADR 0022).
 */
@Controller('internal/v1/requests/:id')
export class DeliveryController {
  constructor(
    private readonly preparations: DeliveryPreparations,
    private readonly stepUp: StepUp,
    private readonly downloads: ArtifactDelivery,
    private readonly log: DeliveryLog,
    private readonly requests: DeliveryRequests,
    private readonly links: DeliveryLinks,
  ) {}

  @Post('delivery/prepare')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  prepare(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.preparations.prepare(principal, id, parseInput(deliveryPrepareCommand, body));
  }

  @Post('delivery/address/verify')
  @HttpCode(200)
  verifyAddress(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.preparations.verifyAddress(principal, id, parseInput(addressVerifyCommand, optionalBody(body)).email);
  }

  /** Not idempotent on purpose: the answer holds the token, which is never stored (a retry issues a new one). */
  @Post('delivery/step-up/challenge')
  @HttpCode(202)
  challenge(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.stepUp.challenge(principal, id);
  }

  /**
   * A link of the person's download page and its code, for the notifier, which sends them in two emails (no public
   * route: only a service of the installation asks). The same key answers the same link.
   */
  @Post('delivery/link')
  @HttpCode(200)
  link(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    if (!principal.id.startsWith('system:')) throw new ProblemError('PERMISSION_DENIED', "Only the installation's own services ask for a delivery link.");
    return this.links.issue(principal, id, parseInput(deliveryLinkIssueCommand, body));
  }

  @Post('delivery/step-up/complete')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  complete(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.stepUp.complete(principal, id, parseInput(stepUpCompleteCommand, body).token);
  }

  /** The artifact's metadata (JSON), or its bytes with `Accept: application/octet-stream`; only with a completed step-up token. */
  @Get('artifacts/:artifactId/download')
  async download(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('artifactId') artifactId: string,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Res() res: Response,
  ): Promise<void> {
    const token = single(headers[DELIVERY_TOKEN_HEADER]);
    if (acceptedMediaType(single(headers.accept), [DELIVERY_BYTES_MEDIA_TYPE]) === undefined) {
      res.status(200).json(await this.downloads.metadata(principal, id, artifactId, token));
      return;
    }
    await sendArtifactBytes(res, await this.downloads.bytes(principal, id, artifactId, token, fileConditionsOf(headers)));
  }

  @Get('delivery/logs')
  async logs(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const detail = await this.requests.read(principal, id);
    return this.log.view(detail.tenantId, detail.id);
  }
}

/** A download's answer: the bytes (200, or 206 for a range), 304 or 416, with the file's headers. */
export async function sendArtifactBytes(res: Response, got: ArtifactBytes): Promise<void> {
  res.setHeader('ETag', got.etag);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'no-store');
  if (got.kind === 'not_modified') {
    res.status(304).end();
    return;
  }
  if (got.kind === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', contentRange('unsatisfiable', got.size));
    res.end();
    return;
  }
  res.status(got.partial ? 206 : 200);
  res.setHeader('Content-Type', DELIVERY_BYTES_MEDIA_TYPE);
  res.setHeader('Content-Disposition', contentDisposition(got.artifact.filename));
  res.setHeader('Content-Length', String(got.range.end - got.range.start + 1));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (got.partial) res.setHeader('Content-Range', contentRange(got.range, got.size));
  await pipeline(got.stream, res).catch(() => res.destroy());
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
