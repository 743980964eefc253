import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ARTIFACT_UPLOAD_HEADERS, artifactDownloadQuery, fulfilmentCallbackCommand, fulfilmentCommand, manifestValidateCommand, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, fileConditionsOf, parseInput, sendStoredFile, uploadBodyTypeProblem } from '@dsar/platform/http';
import { Idempotent, streamedBodyOf } from '@dsar/platform/idempotency';
import { type ArtifactUploadHeaders, Artifacts } from '../application/artifacts';
import { Fulfilments } from '../application/fulfilments';
import { Manifests } from '../application/manifests';

/** What tells two uploads apart besides their bytes, on a call that did not come through the gateway. */
const UPLOAD_FINGERPRINT = { headers: Object.values(ARTIFACT_UPLOAD_HEADERS) };

/**
 * fulfilment-delivery's internal API of manifests and fulfilment; the gateway
 * exposes it under /api/v1/requests/:id/manifest… and …/fulfilment.
 * Commands that call lifecycle-clock keep their writes in transactions of
 * their own (`ownTransactions`); uploads and replacements stream their body
 * to storage, hashed on the way for their Idempotency-Key (`streamedBody`).
 */
@Controller('internal/v1/requests/:id')
export class FulfilmentController {
  constructor(
    private readonly manifests: Manifests,
    private readonly artifacts: Artifacts,
    private readonly fulfilments: Fulfilments,
  ) {}

  /** The manifest (version 0 and empty lists while there is none). The gateway has checked the request's tenant. */
  @Get('manifest')
  manifest(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.manifests.view(principal.tenantId, id);
  }

  /** The body is the file: streamed to encrypted storage as it arrives. */
  @Post('manifest/artifact/upload')
  @HttpCode(202)
  @Idempotent({ streamedBody: UPLOAD_FINGERPRINT })
  async upload(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Req() req: Request) {
    const body = streamedBodyOf(req);
    try {
      refuseNonFileBody(req);
      return await this.artifacts.upload(principal, id, uploadHeaders(req), body);
    } catch (e) {
      // Refused before the whole file arrived: the rest is read and dropped, so that the answer reaches the
      // client and the connection stays usable (the gateway stops sending once it has the answer).
      body.resume();
      throw e;
    }
  }

  @Put('manifest/artifact/:artifactId/replace')
  @HttpCode(202)
  @Idempotent({ streamedBody: UPLOAD_FINGERPRINT })
  async replace(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('artifactId') artifactId: string, @Req() req: Request) {
    const body = streamedBodyOf(req);
    try {
      refuseNonFileBody(req);
      return await this.artifacts.replace(principal, id, artifactId, uploadHeaders(req), body);
    } catch (e) {
      body.resume();
      throw e;
    }
  }

  /** An artifact version's bytes for a reviewer: ranged, or 304, as Range, If-Range and If-None-Match ask; never cached. */
  @Get('manifest/artifact/download')
  async download(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: unknown,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Res() res: Response,
  ): Promise<void> {
    const asked = parseInput(artifactDownloadQuery, query, 'query');
    const file = await this.artifacts.file(principal, id, asked);
    await sendStoredFile(res, file, fileConditionsOf(headers), (range) => this.artifacts.open(file, range));
  }

  @Post('fulfilment/callback')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  callback(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.manifests.callback(principal, id, parseInput(fulfilmentCallbackCommand, body));
  }

  @Post('manifest/validate')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  validate(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.manifests.validate(principal, id, parseInput(manifestValidateCommand, body));
  }

  /** The request is fulfilled with its manifest as it is; the optional body overrides the tasks' gate with a reason. */
  @Post('fulfilment')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  fulfil(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.fulfilments.fulfil(principal, id, parseInput(fulfilmentCommand, body ?? {}));
  }
}

export function headerOf(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function uploadHeaders(req: Request): ArtifactUploadHeaders {
  return {
    filename: headerOf(req, ARTIFACT_UPLOAD_HEADERS.filename),
    contentType: headerOf(req, ARTIFACT_UPLOAD_HEADERS.contentType),
    title: headerOf(req, ARTIFACT_UPLOAD_HEADERS.title),
    type: headerOf(req, ARTIFACT_UPLOAD_HEADERS.type),
    redactionReason: headerOf(req, ARTIFACT_UPLOAD_HEADERS.redactionReason),
    contentLength: headerOf(req, 'content-length'),
  };
}

/**
 * Refuses a body that is not the file: a form or a command (the gateway's rule, for a call that bypasses it),
 * or any body the service's JSON parser read before this handler (up to HTTP_BODY_LIMIT), whose bytes are no
 * longer a stream to store. The file goes as application/octet-stream; its own type is x-artifact-content-type.
 */
export function refuseNonFileBody(req: Request): void {
  const notAFile = uploadBodyTypeProblem(headerOf(req, 'content-type'), ARTIFACT_UPLOAD_HEADERS.contentType);
  if (notAFile) throw notAFile;
  if ((req as Request & { _body?: boolean })._body) {
    throw new ProblemError('UNSUPPORTED_MEDIA_TYPE', `Send the file with Content-Type: application/octet-stream; its own media type goes in ${ARTIFACT_UPLOAD_HEADERS.contentType}.`);
  }
}
