import { Injectable } from '@nestjs/common';
import { OPEN_STATUSES, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { collectDue } from './due-groups';
import type { RetentionGroup } from './retention-purger';

/** Where a request stands for retention: open, or closed since `closedAt` (null: its record is purged already). */
export interface RequestClosure {
  open: boolean;
  closedAt: Date | null;
}

/**
 * A request's records of one class that a sweep may purge, as a purger's query reads them: `key` is the request id
 * (the empty string for tenant-wide records), `ids` the records, `newest` the time of the newest of them, `files`
 * how many are stored files.
 */
export interface RequestCandidate {
  key: string;
  ids: string[];
  newest: Date | string;
  workspace_id?: string | null;
  files?: number;
}

/** Who a sweep is when it asks lifecycle-clock about a request. */
const retentionPrincipal = (tenantId: string): Principal => ({ id: 'system:retention', tenantId, roles: ['operator'] });

/**
 * Whether a request is still open, and since when it is closed, as its owner
 * (lifecycle-clock) has it: for the sweeps of the services that keep records
 * of requests they do not own. A request lifecycle-clock no longer knows was
 * purged there (request_record), so it is closed, since an unknown time.
 */
@Injectable()
export class RequestClosures {
  constructor(private readonly lifecycle: LifecycleClient) {}

  /**
   * The due groups among per-request candidates read a page at a time (keyset by `key`): a request's records
   * count from the later of their newest time and the request's closure, and nothing of an open request is due.
   * Tenant-wide records (`key` '') count from their own time.
   */
  dueGroups(tenantId: string, cutoff: Date, limit: number, page: (afterKey: string | undefined, size: number) => Promise<RequestCandidate[]>): Promise<RetentionGroup[]> {
    return collectDue(
      page,
      async (c) => {
        const newest = new Date(c.newest);
        const group = { workspaceId: c.workspace_id ?? null, recordIds: c.ids, files: c.files ?? 0 };
        if (c.key === '') return { ...group, requestId: null, startedAt: newest };
        const closure = await this.closureOf(tenantId, c.key);
        const startedAt = startOf(newest, closure);
        return closure.open || startedAt > cutoff ? null : { ...group, requestId: c.key, startedAt };
      },
      limit,
    );
  }

  async closureOf(tenantId: string, requestId: string): Promise<RequestClosure> {
    try {
      const detail = await this.lifecycle.request(retentionPrincipal(tenantId), requestId);
      const open = (OPEN_STATUSES as readonly string[]).includes(detail.status);
      return { open, closedAt: open ? null : new Date(detail.statusChangedAt) };
    } catch (e) {
      if (e instanceof ProblemError && e.definition.name === 'RESOURCE_NOT_FOUND') return { open: false, closedAt: null };
      throw e;
    }
  }
}

/** The instant a request's records start counting: the later of their own newest time and the request's closure. */
export function startOf(newestRecordAt: Date, closure: RequestClosure): Date {
  return closure.closedAt && closure.closedAt > newestRecordAt ? closure.closedAt : newestRecordAt;
}
