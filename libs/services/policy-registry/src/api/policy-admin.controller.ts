import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  type CustomPackActivated,
  customPackActivation,
  type CustomPackDeactivated,
  customPackDeactivation,
  type CustomPackRegistered,
  customPackRegistration,
  type Principal,
  type UpgradeProposal,
  upgradeProposalCommand,
  upgradeProposalListQuery,
  type UpgradeProposalStatus,
} from '@dsar/contracts';
import { CurrentPrincipal, parseInput } from '@dsar/platform/http';
import { CustomPacks } from '../application/custom-packs';
import { UpgradeProposals } from '../application/upgrade-proposals';

/** policy-registry's internal API for upgrade proposals (the gateway exposes it under /api/v1/policies/upgrades). */
@Controller('internal/v1/policies/upgrades')
export class UpgradesController {
  constructor(private readonly proposals: UpgradeProposals) {}

  @Post('propose')
  @HttpCode(202)
  propose(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<UpgradeProposalStatus> {
    return this.proposals.propose(principal, parseInput(upgradeProposalCommand, body ?? {}));
  }

  @Get()
  list(@CurrentPrincipal() principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<UpgradeProposal[]> {
    return this.proposals.list(principal, parseInput(upgradeProposalListQuery, rawQuery, 'query').status);
  }

  @Get(':proposalId')
  get(@CurrentPrincipal() principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposal> {
    return this.proposals.get(principal, id);
  }

  @Post(':proposalId/approve')
  @HttpCode(202)
  approve(@CurrentPrincipal() principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposalStatus> {
    return this.proposals.approve(principal, id);
  }

  @Post(':proposalId/apply')
  @HttpCode(202)
  apply(@CurrentPrincipal() principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposalStatus> {
    return this.proposals.apply(principal, id);
  }
}

/** policy-registry's internal API for custom packs (the gateway exposes it under /api/v1/policies/custom). */
@Controller('internal/v1/policies/custom')
export class CustomPacksController {
  constructor(private readonly customPacks: CustomPacks) {}

  @Post('register')
  @HttpCode(202)
  register(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<CustomPackRegistered> {
    return this.customPacks.register(principal, parseInput(customPackRegistration, body));
  }

  @Post('activate')
  @HttpCode(202)
  activate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<CustomPackActivated> {
    return this.customPacks.activate(principal, parseInput(customPackActivation, body));
  }

  @Post('deactivate')
  @HttpCode(202)
  deactivate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<CustomPackDeactivated> {
    return this.customPacks.deactivate(principal, parseInput(customPackDeactivation, body));
  }
}
