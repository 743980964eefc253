import { Injectable } from '@nestjs/common';
import { allowedActionsOf, isUuid, type Principal, type RequestDetail, type RequestStatus } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';

/** The statuses in which a prepared delivery can be collected: fulfilled, and closed after that. */
export const COLLECTABLE: readonly RequestStatus[] = ['fulfilled', 'closed'];

/**
 * Reads a request from its owner, lifecycle-clock, for the caller (its
 * identity signed for the call): another tenant's request, or another
 * workspace's for a caller confined to one, is a 404 there and here. Delivery
 * changes no request status, so it only reads.
 */
@Injectable()
export class DeliveryRequests {
  constructor(private readonly lifecycle: LifecycleClient) {}

  read(principal: Principal, id: string): Promise<RequestDetail> {
    if (!isUuid(id)) return Promise.reject(new ProblemError('RESOURCE_NOT_FOUND', `Request ${id} does not exist.`));
    return this.lifecycle.request(principal, id);
  }

  /** The request, which must be fulfilled (or closed after that) for its delivery to be collected: 409 otherwise. */
  async collectable(principal: Principal, id: string, action: string): Promise<RequestDetail> {
    const detail = await this.read(principal, id);
    this.assertCollectable(detail, action);
    return detail;
  }

  assertCollectable(detail: RequestDetail, action: string): void {
    if (!COLLECTABLE.includes(detail.status)) throw disallowed(detail, action, 'only a fulfilled request is delivered');
  }
}

/** The 409 of a delivery step the request's status does not allow, naming what lifecycle-clock allows it. */
export function disallowed(detail: RequestDetail, action: string, why: string): ProblemError {
  return new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `${action} is not allowed: the request is ${detail.status} (${why}).`, undefined, {
    currentStatus: detail.status,
    action,
    allowedActions: allowedActionsOf(detail),
  });
}
