import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { type Principal, type RetentionPolicy, retentionPolicyUpdate, type RetentionReport } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { RetentionPolicies } from '../application/retention-policies';
import { RetentionReports } from '../application/retention-report';

/** Its policies and report cover every workspace of the tenant: a caller confined to one is refused (403). */
const RETENTION = 'Retention policies and their report';

/** policy-registry's internal API for retention (the gateway exposes it under /api/v1/tenants/:tenantId/retention). */
@Controller('internal/v1/tenants/:tenantId/retention')
export class RetentionController {
  constructor(
    private readonly policies: RetentionPolicies,
    private readonly reports: RetentionReports,
  ) {}

  @Get()
  list(@TenantWidePrincipal(RETENTION) principal: Principal, @Param('tenantId') tenantId: string): Promise<RetentionPolicy[]> {
    return this.policies.list(ownTenant(principal, tenantId));
  }

  @Put()
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  put(@TenantWidePrincipal(RETENTION) principal: Principal, @Param('tenantId') tenantId: string, @Body() body: unknown): Promise<RetentionPolicy> {
    const tenant = ownTenant(principal, tenantId);
    return this.policies.put(principal, tenant, parseInput(retentionPolicyUpdate, body));
  }

  @Get('report')
  report(@TenantWidePrincipal(RETENTION) principal: Principal, @Param('tenantId') tenantId: string): Promise<RetentionReport> {
    return this.reports.report(principal, ownTenant(principal, tenantId));
  }
}

/** A caller acts on its own tenant only: another tenant's retention is a 404, as if it did not exist. */
function ownTenant(principal: Principal, tenantId: string): string {
  if (tenantId !== principal.tenantId) throw new ProblemError('RESOURCE_NOT_FOUND', `No tenant ${tenantId}.`);
  return tenantId;
}
