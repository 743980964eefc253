import type { EntityManager } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';

/**
 * The records of one class that go together: those of one request (or the
 * tenant-wide ones, `requestId` null), with the instant the class started
 * counting for them (docs/retention.md says when, class by class).
 */
export interface RetentionGroup {
  requestId: string | null;
  workspaceId: string | null;
  /** The records' ids as their owner names them. */
  recordIds: string[];
  /** How many of them are stored files. */
  files: number;
  startedAt: Date;
}

/** What a purge removed, and the work left for after its commit (deleting bytes a row no longer points at). */
export interface RetentionPurge {
  purged: RetentionGroup;
  afterCommit?: () => Promise<void>;
}

/**
 * One class of records as its owning service purges it. `due` finds the
 * groups whose class started at or before `cutoff` and whose request is not
 * open; `purge` deletes one group in the sweep's transaction (which holds the
 * tenant's policy), checking again under its own locks that it is still due
 * and taking only rows no other replica holds, so that each record is purged
 * once. It returns null when nothing was left to purge.
 */
export interface RetentionClassPurger {
  readonly retentionClass: RetentionClass;
  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]>;
  purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null>;
}

/** The purgers of a service's classes (a Nest provider of RetentionClassPurger[]). */
export const RETENTION_PURGERS = Symbol('RETENTION_PURGERS');
