import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import {
  EVIDENCE_ARTIFACT_KEY_PATTERN,
  EVIDENCE_UPLOAD_HEADERS,
  isUuid,
  type Principal,
  verificationApproveCommand,
  verificationEvidenceCommand,
  verificationRejectCommand,
  verificationRequestCommand,
} from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, fileConditionsOf, optionalBody, parseInput, sendStoredFile, uploadBodyTypeProblem } from '@dsar/platform/http';
import { Idempotent, streamedBodyOf } from '@dsar/platform/idempotency';
import { UnitOfWork } from '@dsar/platform/persistence';
import { VerificationCases } from '../application/verification-cases';
import { VerificationEvidence } from '../application/verification-evidence';
import { ReminderClaimEntity } from '../infrastructure/reminder-claim.entity';
import { caseViewOf } from './case-view';

/**
 * The verification service's internal API; the gateway exposes it under
 * /api/v1/requests/:id/verification… Commands that call lifecycle-clock keep
 * their writes in transactions of their own (`ownTransactions`).
 */
@Controller('internal/v1/requests/:id')
export class VerificationController {
  constructor(
    private readonly cases: VerificationCases,
    private readonly evidence: VerificationEvidence,
    private readonly uow: UnitOfWork,
  ) {}

  /** The transaction the caller is in (an event handler's inbox transaction), else the data source: in embedded mode one database session serves every service, so a read must never wait outside the transaction that holds it. */
  private get db(): EntityManager {
    return this.uow.manager;
  }

  @Post('verification/request')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  request(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.cases.request(principal, id, parseInput(verificationRequestCommand, optionalBody(body)));
  }

  @Post('verification/evidence')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  recordEvidence(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.evidence.record(principal, id, parseInput(verificationEvidenceCommand, body));
  }

  /** The body is the file: streamed to encrypted storage as it arrives. */
  @Post('verification/evidence/upload')
  @HttpCode(202)
  @Idempotent({ streamedBody: { headers: Object.values(EVIDENCE_UPLOAD_HEADERS) } })
  async upload(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Req() req: Request) {
    const body = streamedBodyOf(req);
    try {
      // The gateway's rule, for a call that bypasses it: a form or a command is not the file.
      const notAFile = uploadBodyTypeProblem(headerOf(req, 'content-type'), EVIDENCE_UPLOAD_HEADERS.contentType);
      if (notAFile) throw notAFile;
      return await this.evidence.upload(
        principal,
        id,
        {
          filename: headerOf(req, EVIDENCE_UPLOAD_HEADERS.filename),
          contentType: headerOf(req, EVIDENCE_UPLOAD_HEADERS.contentType),
          level: headerOf(req, EVIDENCE_UPLOAD_HEADERS.level),
          contentLength: headerOf(req, 'content-length'),
        },
        body,
      );
    } catch (e) {
      // Refused before the whole file arrived: the rest is read and dropped, so that the answer reaches the
      // client and the connection stays usable (the gateway stops sending once it has the answer).
      body.resume();
      throw e;
    }
  }

  @Post('verification/approve')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  approve(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.cases.approve(principal, id, parseInput(verificationApproveCommand, optionalBody(body)));
  }

  @Post('verification/reject')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  reject(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.cases.reject(principal, id, parseInput(verificationRejectCommand, optionalBody(body)));
  }

  /** The request's newest case with its evidence (metadata only). The gateway has checked the request's tenant. */
  @Get('verification-case')
  async caseOf(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const row = isUuid(id) ? await this.cases.latestCase(principal.tenantId, id) : null;
    if (!row) throw new ProblemError('VERIFICATION_CASE_NOT_FOUND', `Request ${id} has no verification case: request one with POST …/verification/request.`);
    const [evidence, reminders] = await Promise.all([this.evidence.evidenceOf(principal.tenantId, id), this.db.getRepository(ReminderClaimEntity).find({ where: { caseId: row.id } })]);
    return caseViewOf(row, evidence, reminders);
  }

  /** An evidence file's bytes for a reviewer: ranged, or 304, as Range, If-Range and If-None-Match ask; never cached. */
  @Get('verification/evidence/:artifactKey/download')
  async download(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('artifactKey') artifactKey: string,
    @Headers() headers: Record<string, string | string[] | undefined>,
    @Res() res: Response,
  ): Promise<void> {
    // Only what an upload could have named reaches the database: no other text (a NUL, which PostgreSQL text cannot hold) is looked up.
    if (!isUuid(id) || !EVIDENCE_ARTIFACT_KEY_PATTERN.test(artifactKey)) throw new ProblemError('RESOURCE_NOT_FOUND', 'The request has no such evidence file.');
    const file = await this.evidence.file(principal, id, artifactKey);
    await sendStoredFile(res, file, fileConditionsOf(headers), (range) => this.evidence.open(file, range));
  }
}

function headerOf(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
