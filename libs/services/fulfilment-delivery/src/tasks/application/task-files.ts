import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { ARTIFACT_UPLOAD_HEADERS, CONTENT_SHA256_HEADER, type Principal, type taskFileStored, type taskRowsCommand } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type ArtifactUploadHeaders, Artifacts } from '../../fulfilment/application/artifacts';
import type { DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';
import { Tasks } from './tasks';

export type TaskFileStored = z.infer<typeof taskFileStored>;
type RowsCommand = z.infer<typeof taskRowsCommand>;

/** A declared sha256: 64 lower-case hex digits. */
const HEX_SHA256 = /^[a-f0-9]{64}$/;
/** Characters kept of a category in a rows file's name; the rest become `-` (one pass, linear). */
const NAME_UNSAFE = /[^A-Za-z0-9._-]+/g;
const MAX_NAME_PART = 80;

/**
 * An access task's answer as files (docs/data-systems.md#answers): a connector's file streamed into the request's
 * encrypted manifest, or its rows packaged into one JSON file, each an artifact tagged with the task and its
 * system, through the manifest's own upload path (Artifacts.uploadFile: the same checks, storage and events as a
 * person's upload). The token, the action (access only) and the claim are checked before a byte is read, and
 * again, under the task's lock, in the transaction that records the file.
 */
@Injectable()
export class TaskFiles {
  constructor(
    private readonly tasks: Tasks,
    private readonly artifacts: Artifacts,
  ) {}

  /** A file of the task's answer, streamed; with `sha256`, other bytes are refused (422 TASK_ANSWER_INVALID) and nothing is kept. */
  async file(principal: Principal, taskId: string, token: string | undefined, headers: ArtifactUploadHeaders, sha256: string | undefined, body: Readable): Promise<TaskFileStored> {
    const task = await this.takingFiles(principal.tenantId, taskId, token);
    if (sha256 !== undefined && !HEX_SHA256.test(sha256)) {
      throw new ProblemError('REQUEST_VALIDATION_FAILED', `Header ${CONTENT_SHA256_HEADER}: missing or invalid.`, [{ field: CONTENT_SHA256_HEADER, message: 'must be 64 lower-case hex characters' }]);
    }
    return this.store(principal, task, token, headers, body, sha256);
  }

  /** Rows of the task's answer, packaged into one JSON file (`{systemKey, category, rows}`) of the manifest. */
  async rows(principal: Principal, taskId: string, token: string | undefined, command: RowsCommand): Promise<TaskFileStored> {
    const task = await this.takingFiles(principal.tenantId, taskId, token);
    const bytes = Buffer.from(`${JSON.stringify({ systemKey: task.systemKey, category: command.category ?? null, rows: command.rows }, null, 2)}\n`, 'utf8');
    const name = `${task.systemKey}${command.category ? `-${command.category.replace(NAME_UNSAFE, '-').slice(0, MAX_NAME_PART)}` : '-rows'}.json`;
    const headers: ArtifactUploadHeaders = {
      filename: encodeURIComponent(name),
      contentType: 'application/json',
      title: encodeURIComponent(command.category ?? `Rows from ${task.systemKey}`),
      contentLength: String(bytes.length),
    };
    return this.store(principal, task, token, headers, Readable.from([bytes]), undefined, command.category);
  }

  private async store(
    principal: Principal,
    task: DataSystemTaskEntity,
    token: string | undefined,
    headers: ArtifactUploadHeaders,
    body: Readable,
    sha256: string | undefined,
    category?: string,
  ): Promise<TaskFileStored> {
    const stored = await this.artifacts.uploadFile(principal, task.requestId, headers, body, {
      task: {
        taskId: task.id,
        systemKey: task.systemKey,
        // Checked again under the task's lock: the claim may have lapsed, been answered or superseded while the bytes streamed.
        check: async (tx: EntityManager) => void (await this.takingFiles(principal.tenantId, task.id, token, tx)),
      },
      ...(sha256 !== undefined ? { expectedSha256: sha256 } : {}),
      ...(category !== undefined ? { dataCategories: [category] } : {}),
    });
    return { taskId: task.id, artifactId: stored.artifactId, size: stored.size, sha256: stored.sha256 };
  }

  /**
   * The tenant's task, when it takes files now: its token is its current claim's (403 otherwise, as every call with
   * the token), it asks for access (422 TASK_ANSWER_INVALID) and it is claimed (409 TASK_NOT_CLAIMABLE: files come
   * before the answer).
   */
  private async takingFiles(tenantId: string, taskId: string, token: string | undefined, tx?: EntityManager): Promise<DataSystemTaskEntity> {
    const task = await this.tasks.checkToken(tenantId, taskId, token, tx);
    if (task.action !== 'access') {
      throw new ProblemError('TASK_ANSWER_INVALID', `The task asks for ${task.action}: files and rows answer access tasks only. Nothing was kept.`);
    }
    if (task.state !== 'claimed') {
      throw new ProblemError('TASK_NOT_CLAIMABLE', `The task is ${task.state}: files and rows are added while it is claimed, before its answer. Nothing was kept.`, undefined, {
        state: task.state,
      });
    }
    return task;
  }
}

/** The upload headers of a task file as the client sent them (as for a manifest upload, without a type). */
export const TASK_FILE_HEADERS = [ARTIFACT_UPLOAD_HEADERS.filename, ARTIFACT_UPLOAD_HEADERS.contentType, ARTIFACT_UPLOAD_HEADERS.title, CONTENT_SHA256_HEADER] as const;
