import { Controller, Get } from '@nestjs/common';
import type { Principal, RetentionClassReport } from '@dsar/contracts';
import { TenantWidePrincipal } from '@dsar/platform/http';
import { RetentionSweeper } from './retention-sweeper';

/** What this service's next sweep would purge for the caller's tenant (internal: policy-registry's report gathers it); it names requests of every workspace, so only for a tenant-wide caller. */
@Controller('internal/v1/retention')
export class RetentionPreviewController {
  constructor(private readonly sweeper: RetentionSweeper) {}

  @Get('preview')
  preview(@TenantWidePrincipal('Retention reports') principal: Principal): Promise<RetentionClassReport[]> {
    return this.sweeper.preview(principal.tenantId);
  }
}
