import { Inject, Injectable } from '@nestjs/common';
import { INTERNAL_API_PREFIX, type Principal, RETENTION_CLASS_OWNERS, RETENTION_CLASSES, type RetentionClassReport, type RetentionReport } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { callService, INTERNAL_AUTH, InternalAuthKey, UPSTREAM_URLS, type UpstreamUrls, upstreamProblem } from '@dsar/platform/http';

/** The services that own retention classes, each asked once. */
export const RETENTION_OWNERS = [...new Set(Object.values(RETENTION_CLASS_OWNERS))];

/**
 * The purge report: what the next sweeps would purge, per class. Each owning
 * service counts its own classes with the policy copy its sweep uses
 * (`GET /internal/v1/retention/preview`), so the report and the sweep agree;
 * nothing is purged. The owners are asked at once; one that cannot be reached
 * makes the report a 503 rather than a partial answer.
 */
@Injectable()
export class RetentionReports {
  constructor(
    private readonly clock: Clock,
    @Inject(UPSTREAM_URLS) private readonly upstreams: UpstreamUrls,
    @Inject(INTERNAL_AUTH) private readonly internalAuth: InternalAuthKey,
  ) {}

  async report(principal: Principal, tenantId: string): Promise<RetentionReport> {
    const generatedAt = this.clock.now().toISOString();
    const parts = await Promise.all(RETENTION_OWNERS.map((owner) => this.previewOf(owner, principal)));
    const byClass = new Map(parts.flat().map((r) => [r.class, r]));
    return { tenantId, generatedAt, classes: RETENTION_CLASSES.flatMap((cls) => byClass.get(cls) ?? []) };
  }

  private async previewOf(owner: string, principal: Principal): Promise<RetentionClassReport[]> {
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
