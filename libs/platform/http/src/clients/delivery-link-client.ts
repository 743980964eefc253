import { Inject, Injectable } from '@nestjs/common';
import { type DeliveryLinkIssueCommand, type DeliveryLinkIssued, INTERNAL_API_PREFIX, type Principal } from '@dsar/contracts';
import { callService, UPSTREAM_URLS, type UpstreamUrls } from '../internal-client';
import { INTERNAL_AUTH, InternalAuthKey } from '../internal-identity';
import { upstreamProblem } from '../upstream-problem';

const OWNER = 'fulfilment-delivery';

/**
 * The link to the person's download page for a delivery by email (`POST /internal/v1/requests/:id/delivery/link`):
 * fulfilment-delivery issues it, with its one-time code, to the notifier, which sends the two in separate emails
 * (docs/notifications.md#delivery-by-email). The answer holds secrets: the caller puts them in the messages and
 * nowhere else. A service that uses it lists `fulfilment-delivery` in its `calls`.
 */
@Injectable()
export class DeliveryLinkClient {
  constructor(
    @Inject(UPSTREAM_URLS) private readonly upstreams: UpstreamUrls,
    @Inject(INTERNAL_AUTH) private readonly internalAuth: InternalAuthKey,
  ) {}

  /**
   * The link of `key` (the event the person is told about) for request `requestId`: the same key answers the same
   * link and code; a new key issues a new link and revokes the request's earlier one. fulfilment-delivery's problems
   * come back as they are: 404 for an unknown request (or another tenant's), 409 when delivery was not prepared or the
   * request is not fulfilled.
   */
  async issue(principal: Principal, requestId: string, command: DeliveryLinkIssueCommand): Promise<DeliveryLinkIssued> {
    const res = await callService(OWNER, this.upstreams[OWNER], {
      method: 'POST',
      path: `${INTERNAL_API_PREFIX}/requests/${encodeURIComponent(requestId)}/delivery/link`,
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      identity: { key: this.internalAuth, principal },
      body: JSON.stringify(command),
    });
    if (res.status !== 200) throw upstreamProblem(OWNER, res);
    return JSON.parse(res.body.toString('utf8')) as DeliveryLinkIssued;
  }
}
