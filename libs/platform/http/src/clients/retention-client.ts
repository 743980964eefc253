import { Inject, Injectable } from '@nestjs/common';
import { INTERNAL_API_PREFIX, type Principal, type RetentionClassReport } from '@dsar/contracts';
import { callService, UPSTREAM_URLS, type UpstreamUrls } from '../internal-client';
import { INTERNAL_AUTH, InternalAuthKey } from '../internal-identity';
import { upstreamProblem } from '../upstream-problem';

/**
 * The retention preview every service that owns a retention class serves (`GET /internal/v1/retention/preview`,
 * libs/platform/retention): what its next sweep would purge, counted with the policy copy the sweep uses.
 * policy-registry's purge report asks each owner; a service that uses it lists the owners in its `calls`.
 */
@Injectable()
export class RetentionPreviewClient {
  constructor(
    @Inject(UPSTREAM_URLS) private readonly upstreams: UpstreamUrls,
    @Inject(INTERNAL_AUTH) private readonly internalAuth: InternalAuthKey,
  ) {}

  /** The classes `owner` holds, as its next sweep for the caller's tenant would purge them. */
  async preview(owner: string, principal: Principal): Promise<RetentionClassReport[]> {
    const res = await callService(owner, this.upstreams[owner], {
      method: 'GET',
      path: `${INTERNAL_API_PREFIX}/retention/preview`,
      headers: { accept: 'application/json' },
      identity: { key: this.internalAuth, principal },
    });
    if (res.status !== 200) throw upstreamProblem(owner, res);
    return JSON.parse(res.body.toString('utf8')) as RetentionClassReport[];
  }
}
