import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  type CustomPackActivated,
  customPackActivation,
  customPackApproval,
  type CustomPackApproved,
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
import { CurrentPrincipal, parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { CustomPacks } from '../application/custom-packs';
import { UpgradeProposals } from '../application/upgrade-proposals';

/** A proposal moves the pack set of the whole tenant, every workspace's activations included (403 for a caller confined to one). */
const UPGRADES = 'Upgrade proposals';
/** A registered version joins the tenant's catalog, which every workspace activates from and upgrades propose. */
const CUSTOM_CATALOG = 'Custom pack registrations';

/** policy-registry's internal API for upgrade proposals (the gateway exposes it under /api/v1/policies/upgrades). */
@Controller('internal/v1/policies/upgrades')
export class UpgradesController {
  constructor(private readonly proposals: UpgradeProposals) {}

  @Post('propose')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  propose(@TenantWidePrincipal(UPGRADES) principal: Principal, @Body() body: unknown): Promise<UpgradeProposalStatus> {
    return this.proposals.propose(principal, parseInput(upgradeProposalCommand, body ?? {}));
  }

  @Get()
  list(@TenantWidePrincipal(UPGRADES) principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<UpgradeProposal[]> {
    return this.proposals.list(principal, parseInput(upgradeProposalListQuery, rawQuery, 'query').status);
  }

  @Get(':proposalId')
  get(@TenantWidePrincipal(UPGRADES) principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposal> {
    return this.proposals.get(principal, id);
  }

  @Post(':proposalId/approve')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  approve(@TenantWidePrincipal(UPGRADES) principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposalStatus> {
    return this.proposals.approve(principal, id);
  }

  @Post(':proposalId/apply')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  apply(@TenantWidePrincipal(UPGRADES) principal: Principal, @Param('proposalId') id: string): Promise<UpgradeProposalStatus> {
    return this.proposals.apply(principal, id);
  }
}

/** policy-registry's internal API for custom packs (the gateway exposes it under /api/v1/policies/custom). */
@Controller('internal/v1/policies/custom')
export class CustomPacksController {
  constructor(private readonly customPacks: CustomPacks) {}

  @Post('register')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  register(@TenantWidePrincipal(CUSTOM_CATALOG) principal: Principal, @Body() body: unknown): Promise<CustomPackRegistered> {
    return this.customPacks.register(principal, parseInput(customPackRegistration, body));
  }

  @Post('approve')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  approve(@TenantWidePrincipal(CUSTOM_CATALOG) principal: Principal, @Body() body: unknown): Promise<CustomPackApproved> {
    return this.customPacks.approve(principal, parseInput(customPackApproval, body));
  }

  @Post('activate')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  activate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<CustomPackActivated> {
    return this.customPacks.activate(principal, parseInput(customPackActivation, body));
  }

  @Post('deactivate')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  deactivate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<CustomPackDeactivated> {
    return this.customPacks.deactivate(principal, parseInput(customPackDeactivation, body));
  }
}
