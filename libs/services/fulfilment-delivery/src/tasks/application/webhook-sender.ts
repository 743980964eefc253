import { Inject, Injectable, Logger } from '@nestjs/common';
import { LEASE_SECONDS, type Principal, type TaskAnswer, type TaskWork } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { webhookSecretKey } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { DataSystems } from '../../data-systems/application/data-systems';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../../data-systems/data-system-settings';
import { webhookBackoffMs, webhookUrlAllowed, webhookVerdict } from '../domain/watchdog-rules';
import { postSignedWebhook } from '../infrastructure/webhook-client';
import { TaskEvents } from './task-events';
import { dbNow, Tasks } from './tasks';

/** The worker name of the sender's claims (the claimed event's `worker`). */
export const WEBHOOK_WORKER = 'webhook';
/** The event type of the body posted to a webhook system. */
export const WEBHOOK_EVENT_TYPE = 'dsar.task.requested';
/** Tasks called in one round (a bounded batch), and at once. */
const BATCH = 20;
const PARALLEL = 4;
/** What the claim's lease allows beyond the call's timeout, for recording its outcome. */
const LEASE_MARGIN_SECONDS = 60;

/** What one round did, by outcome (tests and the watchdog's log). */
export interface WebhookRound {
  answered: number;
  accepted: number;
  failed: number;
}

/** The sender acts for the task's tenant as the system it calls: the audit chain says who answered. */
export function webhookPrincipal(tenantId: string, systemKey: string): Principal {
  return { id: `webhook:${systemKey}`, tenantId, roles: ['connector'] };
}

/**
 * The webhook mode (docs/data-systems.md#webhook): queued tasks of webhook systems are claimed by the service itself
 * (worker `webhook`, a new token each, attempts counted as any claim), their work is POSTed to the system's URL as
 * `{type: 'dsar.task.requested', data: taskWork}` signed per Standard Webhooks (webhook-id `<taskId>.<attempt>`) with
 * DATA_SYSTEM_WEBHOOK_TIMEOUT_MS, and the response decides: 200 with a task answer answers the task (as the API's
 * answer, by the token); 202 keeps it claimed until its timeout (the system answers later with the token it got);
 * anything else requeues it with exponential backoff (`next_attempt_at`) until its attempts are spent (then
 * `error`, attempts_exhausted). Run by the task watchdog, on every replica: a claim is taken once (Tasks.claim), so
 * two replicas never call for the same attempt. Neither the token nor the secret nor the URL is ever logged.
 */
@Injectable()
export class WebhookSender {
  private readonly log = new Logger('WebhookSender');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly tasks: Tasks,
    private readonly events: TaskEvents,
    private readonly systems: DataSystems,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {}

  /** One round: up to a batch of due webhook tasks, a few calls at a time. */
  async round(stopping: () => boolean = () => false): Promise<WebhookRound> {
    const due = await this.due();
    const done: WebhookRound = { answered: 0, accepted: 0, failed: 0 };
    let next = 0;
    const worker = async () => {
      while (next < due.length && !stopping()) {
        const task = due[next++];
        const outcome = await this.send(task.id, task.tenantId, task.systemKey).catch((e: unknown) => {
          this.log.warn(`webhook task ${task.id} (${task.systemKey}): ${(e as Error)?.name ?? 'Error'}: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
          return null;
        });
        if (outcome) done[outcome]++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, due.length) }, worker));
    return done;
  }

  /**
   * Queued webhook tasks whose backoff has passed, of live, unpaused webhook systems (the tasks of others would
   * fill every batch and never be called), oldest first; the system is read again at the call.
   */
  private async due(): Promise<Array<{ id: string; tenantId: string; systemKey: string }>> {
    const rows: Array<{ id: string; tenant_id: string; system_key: string }> = await this.uow.manager.query(
      `SELECT t.id, t.tenant_id, t.system_key FROM ${qualifiedTable(this.uow.dataSource, 'data_system_task')} t
         JOIN ${qualifiedTable(this.uow.dataSource, 'data_system')} s ON s.tenant_id = t.tenant_id AND s.key = t.system_key
        WHERE t.mode = 'webhook' AND t.state = 'queued' AND (t.next_attempt_at IS NULL OR t.next_attempt_at <= now()) AND t.timeout_at > $1
          AND s.deleted_at IS NULL AND s.definition ->> 'mode' = 'webhook' AND COALESCE(s.definition ->> 'paused', 'false') <> 'true'
        ORDER BY COALESCE(t.next_attempt_at, t.created_at), t.id LIMIT $2`,
      [this.clock.now(), BATCH],
    );
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, systemKey: r.system_key }));
  }

  /**
   * Claims, calls and records one task; null when it was not called (its system is paused, gone or no longer a
   * webhook, its secret unreadable, or another replica claimed it first).
   */
  async send(taskId: string, tenantId: string, systemKey: string): Promise<keyof WebhookRound | null> {
    const system = await this.systems.get(tenantId, systemKey);
    // A paused system is not called; a deleted one's tasks are the watchdog's (system_deleted).
    if (!system || system.paused || system.mode !== 'webhook' || !system.webhook) return null;
    const secret = await this.systems.webhookSecret(tenantId, systemKey);
    if (secret === null) return null;
    const principal = webhookPrincipal(tenantId, systemKey);
    let work: TaskWork;
    try {
      work = await this.tasks.claim(principal, taskId, { worker: WEBHOOK_WORKER, leaseSeconds: this.leaseSeconds() });
    } catch (e) {
      // Claimed by another replica meanwhile, or failed for its spent attempts (recorded by the claim).
      if (e instanceof ProblemError && e.definition.name === 'TASK_NOT_CLAIMABLE') return null;
      throw e;
    }
    const url = system.webhook.url;
    if (!webhookUrlAllowed(url, this.settings.webhookAllowHttp)) {
      await this.settle(principal, work, {
        outcome: 'error',
        retryable: false,
        code: 'webhook_url_refused',
        message: 'The webhook URL is not https (http is allowed only with DATA_SYSTEM_WEBHOOK_ALLOW_HTTP): change it, then retry the task.',
      });
      return 'failed';
    }
    let key: Buffer;
    try {
      key = webhookSecretKey(secret);
    } catch {
      return this.failed(principal, work, 'the webhook secret cannot be used');
    }
    const body = Buffer.from(JSON.stringify({ type: WEBHOOK_EVENT_TYPE, data: work }), 'utf8');
    const response = await postSignedWebhook(url, key, `${work.taskId}.${work.attempt}`, body, this.settings.webhookTimeoutMs);
    if (!response.ok) return this.failed(principal, work, response.reason);
    const verdict = webhookVerdict(response.status, response.body);
    if (verdict.kind === 'failed') return this.failed(principal, work, verdict.message);
    if (verdict.kind === 'accepted') {
      await this.holdUntilTimeout(principal, work);
      return 'accepted';
    }
    try {
      await this.tasks.answer(principal, work.taskId, work.token, verdict.answer);
    } catch (e) {
      if (e instanceof ProblemError && e.definition.name === 'TASK_ANSWER_INVALID') return this.failed(principal, work, `the webhook's answer does not fit the task: ${e.message.slice(0, 200)}`);
      // Answered (or requeued, cancelled) another way while the call ran: that stands.
      if (e instanceof ProblemError && e.status < 500) return null;
      throw e;
    }
    return 'answered';
  }

  /** A 202: the system answers later with its token, so the claim holds until the task times out. */
  private async holdUntilTimeout(principal: Principal, work: TaskWork): Promise<void> {
    await this.uow.run(async (tx) => {
      const task = await this.tasks.checkToken(principal.tenantId, work.taskId, work.token, tx).catch(() => null);
      if (!task || task.state !== 'claimed') return;
      const now = await dbNow(tx);
      task.leaseExpiresAt = task.timeoutAt > now ? task.timeoutAt : now;
      task.updatedAt = this.clock.now();
      await tx.save(task);
    });
  }

  /**
   * A failed call: the task is queued again after the backoff (requeued, reason webhook_failed) while attempts are
   * left, else it fails (`error`, attempts_exhausted, as an answer of the sender). Nothing when the claim is no
   * longer this call's (the lease lapsed and it was requeued, or the system answered with the token meanwhile).
   */
  private async failed(principal: Principal, work: TaskWork, reason: string): Promise<'failed'> {
    this.log.warn(`webhook task ${work.taskId} (${work.systemKey}), attempt ${work.attempt}: ${reason}`);
    await this.uow.run(async (tx) => {
      const task = await this.tasks.checkToken(principal.tenantId, work.taskId, work.token, tx).catch(() => null);
      if (!task || task.state !== 'claimed') return;
      const now = this.clock.now();
      const message = `Webhook call ${work.attempt} failed: ${reason}.`;
      if (task.attempts >= task.maxAttempts) {
        await this.tasks.applyAnswer(tx, task, { outcome: 'error', retryable: true, code: 'webhook_failed', message }, { by: principal.id, byOperator: false });
        return;
      }
      const at = await dbNow(tx);
      Object.assign(task, {
        state: 'queued',
        claimedBy: null,
        leaseExpiresAt: null,
        nextAttemptAt: new Date(at.getTime() + webhookBackoffMs(task.attempts)),
        lastError: { message, code: 'webhook_failed', retryable: true, at: now.toISOString() },
        updatedAt: now,
      });
      await tx.save(task);
      await this.events.requeued(tx, task, 'webhook_failed', principal.id, now);
    });
    return 'failed';
  }

  /** Settles the claimed task with the sender's own answer (a call that cannot be made). */
  private async settle(principal: Principal, work: TaskWork, answer: TaskAnswer): Promise<void> {
    this.log.warn(`webhook task ${work.taskId} (${work.systemKey}): ${answer.outcome === 'error' ? answer.message : answer.outcome}`);
    await this.tasks.answer(principal, work.taskId, work.token, answer);
  }

  /** The claim covers the call and the recording of its outcome. */
  private leaseSeconds(): number {
    return Math.max(LEASE_SECONDS.min, Math.ceil(this.settings.webhookTimeoutMs / 1000) + LEASE_MARGIN_SECONDS);
  }
}
