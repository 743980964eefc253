import { once } from 'node:events';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AUDIT_EXPORT_MEDIA_TYPES,
  AWAIT_EVENT_HEADER,
  AUDIT_HEAD_SEQUENCE_HEADER,
  AUDIT_ROOT_HASH_HEADER,
  type AuditExportFormat,
  auditExportQuery,
  auditVerifyCommand,
  type Principal,
} from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { acceptedMediaType, CurrentPrincipal, parseInput } from '@dsar/platform/http';
import { ChainExport } from '../application/chain-export';
import { ChainVerification } from '../application/chain-verification';
import { Ledger } from '../application/ledger';

/** The streamed file format a client's Accept header asks for, if any. */
function streamedFormat(accept: string | undefined): AuditExportFormat | undefined {
  const type = acceptedMediaType(accept, Object.values(AUDIT_EXPORT_MEDIA_TYPES));
  return (Object.keys(AUDIT_EXPORT_MEDIA_TYPES) as AuditExportFormat[]).find((f) => AUDIT_EXPORT_MEDIA_TYPES[f] === type);
}

/** A request's audit chain: export and verification (public under /api/v1/requests/:id/audit). */
@Controller('internal/v1/requests/:id/audit')
export class AuditController {
  constructor(
    private readonly exporter: ChainExport,
    private readonly verification: ChainVerification,
    private readonly ledger: Ledger,
  ) {}

  /**
   * 202 with the chain in a JSON body; or, when Accept asks for
   * application/x-ndjson or text/csv, 200 with the chain as a streamed file.
   */
  @Get('export')
  async export(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() rawQuery: Record<string, unknown>,
    @Headers('accept') accept: string | undefined,
    @Headers(AWAIT_EVENT_HEADER) awaitEvent: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const query = parseInput(auditExportQuery, rawQuery, 'query');
    await this.ledger.catchUp(principal.tenantId, awaitEvent);
    const streamed = streamedFormat(accept);
    if (!streamed) {
      res.status(202).json(await this.exporter.snapshot(principal.tenantId, id, query.format ?? 'jsonl'));
      return;
    }
    if (query.format && query.format !== streamed) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', `format=${query.format} asks for one file type and Accept: ${AUDIT_EXPORT_MEDIA_TYPES[streamed]} for another.`, [
        { field: 'format', message: `must be ${streamed} (or absent) with Accept: ${AUDIT_EXPORT_MEDIA_TYPES[streamed]}` },
      ]);
    }
    const { view, chunks } = await this.exporter.stream(principal.tenantId, id, streamed);
    res.status(200);
    res.setHeader('content-type', `${AUDIT_EXPORT_MEDIA_TYPES[streamed]}; charset=utf-8`);
    res.setHeader('content-disposition', `attachment; filename="audit-${id}.${streamed}"`);
    res.setHeader(AUDIT_ROOT_HASH_HEADER, view.head.hash);
    res.setHeader(AUDIT_HEAD_SEQUENCE_HEADER, String(view.head.sequence));
    try {
      for await (const chunk of chunks) {
        if (!res.write(chunk)) await once(res, 'drain');
      }
      res.end();
    } catch (e) {
      // Headers are gone: all that is left is to cut the response, so the client sees an incomplete file, not a short one.
      res.destroy(e as Error);
    }
  }

  @Post('verify')
  @HttpCode(202)
  async verify(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown, @Headers(AWAIT_EVENT_HEADER) awaitEvent?: string) {
    const command = parseInput(auditVerifyCommand, body);
    await this.ledger.catchUp(principal.tenantId, awaitEvent);
    return this.verification.verify(principal.tenantId, id, command);
  }
}
