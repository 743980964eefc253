import type { DeliveryPrepareCommand, deliveryLogs, deliveryPrepared, Permission, RequestStatus, stepUpChallenge } from '@dsar/contracts';
import type { z } from 'zod';

/*
 * The delivery of a fulfilled request (delivery-routes.ts in the api-gateway): its preparation, the step-up token
 * and the log of every try. Pure: the tab draws what these give.
 */

export type DeliveryLogs = z.infer<typeof deliveryLogs>;
export type DeliveryPrepared = z.infer<typeof deliveryPrepared>;
export type StepUpChallenge = z.infer<typeof stepUpChallenge>;
export type DeliveryChannel = DeliveryPrepareCommand['channel'];
export type DeliverySecurityLevel = DeliveryPrepareCommand['securityLevel'];
type DeliveryLogType = DeliveryLogs['logs'][number]['eventType'];

/** What preparing the delivery and issuing a step-up token need (the route table). */
export const DELIVER_PERMISSION: Permission = 'requests:act';

export const DELIVERY_CHANNEL_LABELS: Readonly<Record<DeliveryChannel, string>> = {
  portal: 'Portal',
  email: 'Email',
  secure_remote_access: 'Secure remote access',
};

export const SECURITY_LEVEL_LABELS: Readonly<Record<DeliverySecurityLevel, string>> = {
  standard: 'Standard',
  token: 'Token (step-up)',
};

export const DELIVERY_STEP_LABELS: Readonly<Record<DeliveryLogType, string>> = {
  delivery_prepared: 'Delivery prepared',
  delivery_step_up_issued: 'Step-up token issued',
  delivery_step_up_completed: 'Step-up completed',
  delivery_step_up_failed: 'Step-up token refused',
  delivery_artifact_delivered: 'Artifact downloaded',
};

/** Only a fulfilled request is delivered, and only by a caller who may act on requests. */
export function canPrepareDelivery(status: RequestStatus, permissions: readonly string[]): boolean {
  return status === 'fulfilled' && permissions.includes(DELIVER_PERMISSION);
}

export interface DeliveryLogRow {
  key: string;
  /** The step in words. */
  step: string;
  attempt: number;
  at: string;
  /** The last of repeated tries, when there were several. */
  lastAt: string | null;
  repeats: number;
  outcome: string;
  actor: string;
  detail: string | null;
}

/** Every try of every step, oldest first (the log groups them by step; a reader wants them in the order they happened). */
export function deliveryLogRows(logs: DeliveryLogs['logs']): DeliveryLogRow[] {
  const rows = logs.flatMap((group) =>
    group.attempts.map((a) => ({
      key: `${group.eventId}-${a.attempt}`,
      step: DELIVERY_STEP_LABELS[group.eventType] ?? group.eventType.replace(/_/g, ' '),
      attempt: a.attempt,
      at: a.at,
      lastAt: a.repeats > 1 && a.lastAt !== a.at ? a.lastAt : null,
      repeats: a.repeats,
      outcome: a.outcome.replace(/_/g, ' '),
      actor: a.actor,
      detail: a.detail,
    })),
  );
  // Array.prototype.sort is stable: tries at the same instant keep the log's order.
  return rows.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
}
