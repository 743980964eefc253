import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { DeliveryEventTypes, type deliveryLogs, type deliveryLogsPurgedV1, publicEventType } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { DeliveryLogEntryEntity } from '../infrastructure/delivery-log-entry.entity';

export type DeliveryLogsView = z.infer<typeof deliveryLogs>;
type DeliveryLogEventType = DeliveryLogsView['logs'][number]['eventType'];

/** The request an event or a log entry is about. */
export interface DeliveryFacts {
  requestId: string;
  tenantId: string;
  workspaceId: string | null;
}

/** One try to write to the log, with the event it recorded (if any). */
export type DeliveryTry = Omit<DeliveryLogEntryEntity, 'seq' | 'requestId' | 'tenantId' | 'workspaceId' | 'challengeId' | 'artifactId' | 'detail' | 'repeats' | 'lastAt'> & {
  challengeId?: string | null;
  artifactId?: string | null;
  detail?: string | null;
};

/**
 * The delivery log (retention class `delivery_log`): every try of a delivery
 * step, written in the transaction of its event, read back grouped by event
 * type, and purged per request.
 */
@Injectable()
export class DeliveryLog {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  private get db(): EntityManager {
    return this.uow.manager;
  }

  /** Records a delivery event of the request in the transaction; returns its id. */
  async event(tx: EntityManager, facts: DeliveryFacts, type: string, data: Record<string, unknown>): Promise<string> {
    const envelope = await this.outbox.record(tx, { type, subject: facts.requestId, tenantId: facts.tenantId, data: { ...facts, ...data } });
    return envelope.id;
  }

  /** Appends a try to the request's log, in the transaction. */
  async append(tx: EntityManager, facts: DeliveryFacts, entry: DeliveryTry): Promise<void> {
    await tx.insert(DeliveryLogEntryEntity, {
      tenantId: facts.tenantId,
      workspaceId: facts.workspaceId,
      requestId: facts.requestId,
      eventType: entry.eventType,
      eventId: entry.eventId,
      outcome: entry.outcome,
      actor: entry.actor,
      detail: entry.detail ?? null,
      challengeId: entry.challengeId ?? null,
      artifactId: entry.artifactId ?? null,
      at: entry.at,
      repeats: 1,
      lastAt: null,
    });
  }

  /** Records the event and the try that caused it, in the transaction. */
  async recordTry(tx: EntityManager, facts: DeliveryFacts, type: string, data: Record<string, unknown>, entry: Omit<DeliveryTry, 'eventType' | 'eventId'>): Promise<string> {
    const eventId = await this.event(tx, facts, type, data);
    await this.append(tx, facts, { ...entry, eventType: type, eventId });
    return eventId;
  }

  /**
   * Records a refused try: when it repeats the request's newest entry (the same event type, caller, outcome,
   * challenge and detail), that entry counts one more (`repeats`, `lastAt`) and nothing is published; otherwise it
   * is recorded like any try, with its event. So a caller sending the same refused token in a loop adds one entry
   * and one event to the request's log and audit chain, however often it tries. Two refusals at the very same
   * moment may both start an entry; the next ones count in the newer.
   */
  async recordRefusal(tx: EntityManager, facts: DeliveryFacts, type: string, data: Record<string, unknown>, entry: Omit<DeliveryTry, 'eventType' | 'eventId'>): Promise<void> {
    const table = qualifiedTable(this.uow.dataSource, 'delivery_log');
    const counted = await tx
      .createQueryBuilder()
      .update(DeliveryLogEntryEntity)
      .set({ repeats: () => 'repeats + 1', lastAt: entry.at })
      .where(`seq = (SELECT max(newest.seq) FROM ${table} newest WHERE newest.tenant_id = :tenantId AND newest.request_id = :requestId)`, { tenantId: facts.tenantId, requestId: facts.requestId })
      .andWhere('event_type = :type AND actor = :actor AND outcome = :outcome', { type, actor: entry.actor, outcome: entry.outcome })
      .andWhere('challenge_id IS NOT DISTINCT FROM CAST(:challengeId AS uuid) AND detail IS NOT DISTINCT FROM CAST(:detail AS text)', {
        challengeId: entry.challengeId ?? null,
        detail: entry.detail ?? null,
      })
      .returning(['seq'])
      .execute();
    if ((counted.raw as unknown[]).length > 0) return;
    await this.recordTry(tx, facts, type, data, entry);
  }

  /** The request's log: one entry per delivery event type, in the order each first happened, with its tries oldest first. */
  async view(tenantId: string, requestId: string): Promise<DeliveryLogsView> {
    const rows = await this.db.getRepository(DeliveryLogEntryEntity).find({ where: { tenantId, requestId }, order: { seq: 'ASC' } });
    return { requestId, logs: groupTries(rows) };
  }

  /**
   * Deletes the request's delivery log (retention class `delivery_log`) and
   * records `dsar.delivery.logs_purged.v1` with the number of entries, in one
   * transaction. Preparations and challenges (token hashes) stay: they are the
   * delivery's state, not its log. Returns the number of entries deleted; with
   * none, nothing is recorded.
   */
  async purgeRequest(tenantId: string, requestId: string, actor: string): Promise<number> {
    return (await this.uow.run((tx) => this.purgeIn(tx, tenantId, requestId, actor))).ids.length;
  }

  /**
   * The purge in the caller's transaction: the request's entries (written at or before `writtenBy`, when given),
   * with `dsar.delivery.logs_purged.v1`; entries another transaction holds are left to it. Returns their ids.
   */
  async purgeIn(tx: EntityManager, tenantId: string, requestId: string, actor: string, writtenBy?: Date): Promise<{ ids: string[]; workspaceId: string | null }> {
    const table = qualifiedTable(this.uow.dataSource, 'delivery_log');
    // Through a CTE: a bare DELETE … RETURNING answers [rows, count] through TypeORM.
    const rows: Array<{ id: string; workspace_id: string | null }> = await tx.query(
      `WITH deleted AS (
         DELETE FROM ${table} WHERE seq IN (SELECT seq FROM ${table} WHERE tenant_id = $1 AND request_id = $2 AND ($3::timestamptz IS NULL OR at <= $3) FOR UPDATE SKIP LOCKED)
         RETURNING seq, workspace_id)
       SELECT seq::text AS id, workspace_id FROM deleted ORDER BY seq`,
      [tenantId, requestId, writtenBy ?? null],
    );
    if (rows.length === 0) return { ids: [], workspaceId: null };
    const now = this.clock.now();
    await this.event(tx, { requestId, tenantId, workspaceId: rows[0].workspace_id }, DeliveryEventTypes.logsPurged, {
      actor,
      occurredAt: now.toISOString(),
      entries: rows.length,
    } satisfies Omit<z.infer<typeof deliveryLogsPurgedV1>, keyof DeliveryFacts>);
    return { ids: rows.map((r) => r.id), workspaceId: rows[0].workspace_id };
  }
}

/**
 * The log's entries grouped by event type, in the order each type first
 * happened, each named by its public name (`delivery_prepared`; the rows keep
 * the CloudEvents type): `eventId` is the newest event of the type, and `attempts` number
 * the type's entries from 1, oldest first; an entry of repeated refusals
 * stands for `repeats` tries, from `at` to `lastAt`.
 */
export function groupTries(rows: readonly DeliveryLogEntryEntity[]): DeliveryLogsView['logs'] {
  const groups = new Map<string, { eventId: string | null; attempts: DeliveryLogsView['logs'][number]['attempts'] }>();
  for (const row of rows) {
    const group = groups.get(row.eventType) ?? { eventId: null, attempts: [] };
    groups.set(row.eventType, group);
    if (row.eventId) group.eventId = row.eventId;
    group.attempts.push({
      attempt: group.attempts.length + 1,
      at: row.at.toISOString(),
      outcome: row.outcome,
      actor: row.actor,
      detail: row.detail,
      repeats: row.repeats,
      lastAt: (row.lastAt ?? row.at).toISOString(),
    });
  }
  return [...groups.entries()].flatMap(([eventType, g]) => (g.eventId ? [{ eventId: g.eventId, eventType: publicEventType(eventType) as DeliveryLogEventType, attempts: g.attempts }] : []));
}
