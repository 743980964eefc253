import { Controller, Get, Param, Query } from '@nestjs/common';
import { isPackId, type PolicyPack, type PolicyPackSummary, type Principal, policyListQuery, policyPackQuery } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal, parseInput, scopeOf } from '@dsar/platform/http';
import { PolicyCatalog } from '../application/policy-catalog';
import { summaryOf } from './policy-views';

/** policy-registry's internal API for policy packs (the gateway exposes it under /api/v1). */
@Controller('internal/v1/policies')
export class PoliciesController {
  constructor(private readonly catalog: PolicyCatalog) {}

  /** The current version of every pack the caller may use. */
  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<PolicyPackSummary[]> {
    const query = parseInput(policyListQuery, rawQuery, 'query');
    return (await this.catalog.list(scopeOf(principal), query)).map(summaryOf);
  }

  /** The full pack document, current unless a version is asked for. */
  @Get(':packId')
  async get(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string, @Query() rawQuery: Record<string, unknown>): Promise<PolicyPack> {
    const { version } = parseInput(policyPackQuery, rawQuery, 'query');
    const found = isPackId(packId) ? await this.catalog.find(scopeOf(principal), packId, version) : undefined;
    if (!found) {
      throw new ProblemError('RESOURCE_NOT_FOUND', version === undefined ? `No policy pack ${packId}.` : `No policy pack ${packId} at version ${version}.`);
    }
    return found.pack;
  }
}
