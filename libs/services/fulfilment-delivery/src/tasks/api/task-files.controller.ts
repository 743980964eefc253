import { Body, Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ARTIFACT_UPLOAD_HEADERS, CONTENT_SHA256_HEADER, type Principal, TASK_TOKEN_HEADER, taskRowsCommand } from '@dsar/contracts';
import { parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Idempotent, streamedBodyOf } from '@dsar/platform/idempotency';
import { headerOf, refuseNonFileBody } from '../../fulfilment/api/fulfilment.controller';
import { TASK_FILE_HEADERS, TaskFiles } from '../application/task-files';

/** What the tenant-wide task routes are, for the refusal of a caller confined to one workspace. */
const TASKS = 'Data-system tasks';

/**
 * A connector's access answer as files (the gateway exposes it under /api/v1/tasks/{id}/files and …/rows): the file
 * streamed to encrypted storage as it arrives (`streamedBody`, hashed on the way for its Idempotency-Key), or rows
 * packaged into a JSON file. Both read the request from lifecycle-clock, so they keep their own transactions.
 */
@Controller('internal/v1/tasks/:taskId')
export class TaskFilesController {
  constructor(private readonly files: TaskFiles) {}

  @Post('files')
  @HttpCode(202)
  @Idempotent({ streamedBody: { headers: TASK_FILE_HEADERS } })
  async file(@TenantWidePrincipal(TASKS) principal: Principal, @Param('taskId') taskId: string, @Req() req: Request) {
    const body = streamedBodyOf(req);
    try {
      refuseNonFileBody(req);
      const headers = {
        filename: headerOf(req, ARTIFACT_UPLOAD_HEADERS.filename),
        contentType: headerOf(req, ARTIFACT_UPLOAD_HEADERS.contentType),
        title: headerOf(req, ARTIFACT_UPLOAD_HEADERS.title),
        contentLength: headerOf(req, 'content-length'),
      };
      return await this.files.file(principal, taskId, headerOf(req, TASK_TOKEN_HEADER), headers, headerOf(req, CONTENT_SHA256_HEADER), body);
    } catch (e) {
      // Refused before the whole file arrived: the rest is read and dropped, so that the answer reaches the client.
      body.resume();
      throw e;
    }
  }

  @Post('rows')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  rows(@TenantWidePrincipal(TASKS) principal: Principal, @Param('taskId') taskId: string, @Headers(TASK_TOKEN_HEADER) token: string | undefined, @Body() body: unknown) {
    return this.files.rows(principal, taskId, token, parseInput(taskRowsCommand, body));
  }
}
