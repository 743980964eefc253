import { Controller, Get } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, type CustomPackRegisteredV1, type PackSetChangedV1, PolicyEventTypes, type PolicyUsage, type Principal, type UpgradeAppliedV1 } from '@dsar/contracts';
import { CurrentPrincipal, scopeOf } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { PolicyCopy } from '../application/policy-copy';
import { PolicyUpgrades } from '../application/policy-upgrades';

/** How many open requests of the caller's scope pin each pack version (policy-registry's upgrade proposals ask). */
@Controller('internal/v1/requests/policy-usage')
export class PolicyUsageController {
  constructor(private readonly upgrades: PolicyUpgrades) {}

  @Get()
  usage(@CurrentPrincipal() principal: Principal): Promise<PolicyUsage[]> {
    return this.upgrades.usage(scopeOf(principal));
  }
}

/**
 * policy-registry's events, each in the consumer's inbox transaction: the
 * copy of the tenants' pack sets and custom packs that intake pins from, and
 * the re-pinning an applied upgrade asks for.
 */
@Controller()
export class PolicyEventsHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly policies: PolicyCopy,
    private readonly upgrades: PolicyUpgrades,
  ) {}

  @EventPattern(PolicyEventTypes.packSetChanged)
  async onPackSetChanged(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.policies.keepPackSet(this.manager, event.data as PackSetChangedV1);
  }

  @EventPattern(PolicyEventTypes.customRegistered)
  async onCustomPackRegistered(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.policies.keepCustomPack(this.manager, event.data as CustomPackRegisteredV1);
  }

  @EventPattern(PolicyEventTypes.upgradeApplied)
  async onUpgradeApplied(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.upgrades.repin(this.manager, event.data as UpgradeAppliedV1);
  }

  private get manager() {
    return this.uow.manager;
  }
}
