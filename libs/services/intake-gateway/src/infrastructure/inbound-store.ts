import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InboundOutcome, InboundProvider, InboundReason, InboundStatus, InboundSurface } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';

/** What is known of a delivery before it is decided. */
export interface InboundDelivery {
  surface: InboundSurface;
  deliveryId: string;
  provider: InboundProvider;
  tenantId: string;
  workspaceId: string | null;
  jurisdiction: string;
  sourceId: string | null;
  contentSha256: string;
  receivedAt: Date;
}

/** The decision on a delivery, and the answer every repetition of it gets. */
export interface InboundDecision {
  status: InboundStatus;
  outcome: InboundOutcome;
  reason: InboundReason;
  requestId: string | null;
  /** SHA-256 of the message's thread identity; kept only when the message belongs to a request. */
  threadKey: string | null;
  answer: { status: number; body: unknown };
}

export type InboundClaim = { kind: 'claimed'; id: string } | { kind: 'replay'; status: number; body: unknown };

/**
 * How long a claim holds a delivery before a repetition may take it over (the process that held it died). The
 * holder renews it every CLAIM_RENEW_MS while it works, as for idempotency keys (ADR 0013).
 */
const CLAIM_LEASE_SECONDS = 30;
export const CLAIM_RENEW_MS = 10_000;

/** The record of inbound deliveries (migration 1763700000700): claimed first, completed with the decision in its own transaction. */
@Injectable()
export class InboundStore {
  constructor(private readonly uow: UnitOfWork) {}

  private get table(): string {
    return qualifiedTable(this.uow.dataSource, 'inbound_messages');
  }

  /**
   * Claims a delivery, in its own committed statement so that a repetition sees it at once: a new one (or one whose
   * claim lapsed) is claimed; a decided one is replayed; one being decided is a 409, retryable.
   */
  async claim(d: InboundDelivery): Promise<InboundClaim> {
    const claimed: { id: string }[] = await this.uow.dataSource.query(
      `INSERT INTO ${this.table} AS m (id, surface, delivery_id, provider, tenant_id, workspace_id, jurisdiction, source_id, content_sha256, received_at, state, locked_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'processing', now() + make_interval(secs => $11))
       ON CONFLICT (surface, delivery_id) DO UPDATE SET locked_until = EXCLUDED.locked_until
         WHERE m.state = 'processing' AND m.locked_until < now()
       RETURNING m.id`,
      [randomUUID(), d.surface, d.deliveryId, d.provider, d.tenantId, d.workspaceId, d.jurisdiction, d.sourceId, d.contentSha256, d.receivedAt, CLAIM_LEASE_SECONDS],
    );
    if (claimed.length > 0) return { kind: 'claimed', id: claimed[0].id };
    const rows: { state: string; response_status: number | null; response_body: unknown }[] = await this.uow.dataSource.query(
      `SELECT state, response_status, response_body FROM ${this.table} WHERE surface = $1 AND delivery_id = $2`,
      [d.surface, d.deliveryId],
    );
    const existing = rows[0];
    if (existing?.state === 'completed' && existing.response_status !== null) return { kind: 'replay', status: existing.response_status, body: existing.response_body };
    throw new ProblemError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'This delivery is being handled; retry shortly to get its answer.', undefined, {}, { 'Retry-After': '2' });
  }

  async renew(id: string): Promise<void> {
    await this.uow.dataSource.query(`UPDATE ${this.table} SET locked_until = now() + make_interval(secs => $2) WHERE id = $1 AND state = 'processing'`, [id, CLAIM_LEASE_SECONDS]);
  }

  /** Frees a claim whose handling failed: nothing was decided, so a repetition starts over. */
  async release(id: string): Promise<void> {
    await this.uow.dataSource.query(`DELETE FROM ${this.table} WHERE id = $1 AND state = 'processing'`, [id]);
  }

  /** Records the decision and its answer, in the caller's transaction (beside the event that tells of it). */
  async complete(tx: EntityManager, id: string, decision: InboundDecision): Promise<void> {
    await tx.query(
      `UPDATE ${this.table} SET state = 'completed', status = $2, outcome = $3, reason = $4, request_id = $5, thread_key = $6,
         response_status = $7, response_body = $8::jsonb, completed_at = now()
       WHERE id = $1`,
      [id, decision.status, decision.outcome, decision.reason, decision.requestId, decision.threadKey, decision.answer.status, JSON.stringify(decision.answer.body)],
    );
  }

  /**
   * The request of the newest message of the tenant (and of the route's workspace, when it has one) whose thread
   * identity is one of `threadKeys`: the request a reply in that thread belongs to.
   */
  async requestOfThread(tenantId: string, workspaceId: string | null, threadKeys: readonly string[]): Promise<string | undefined> {
    if (threadKeys.length === 0) return undefined;
    const rows: { request_id: string }[] = await this.uow.dataSource.query(
      `SELECT request_id FROM ${this.table}
       WHERE tenant_id = $1 AND thread_key = ANY($2::text[]) AND request_id IS NOT NULL AND ($3::text IS NULL OR workspace_id = $3)
       ORDER BY created_at DESC LIMIT 1`,
      [tenantId, threadKeys, workspaceId],
    );
    return rows[0]?.request_id;
  }
}
