import { Injectable } from '@nestjs/common';
import { type Principal, RETENTION_CLASS_OWNERS, RETENTION_CLASSES, type RetentionReport } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { RetentionPreviewClient } from '@dsar/platform/http';

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
    private readonly previews: RetentionPreviewClient,
  ) {}

  async report(principal: Principal, tenantId: string): Promise<RetentionReport> {
    const generatedAt = this.clock.now().toISOString();
    const parts = await Promise.all(RETENTION_OWNERS.map((owner) => this.previews.preview(owner, principal)));
    const byClass = new Map(parts.flat().map((r) => [r.class, r]));
    return { tenantId, generatedAt, classes: RETENTION_CLASSES.flatMap((cls) => byClass.get(cls) ?? []) };
  }
}
