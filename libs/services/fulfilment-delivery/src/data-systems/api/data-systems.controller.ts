import { Body, Controller, Delete, Get, HttpCode, Param, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { type DataSystemView, dataSystemPut, type Principal } from '@dsar/contracts';
import { parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { Tasks } from '../../tasks/application/tasks';
import { DataSystems } from '../application/data-systems';

/** The registry covers every workspace of the tenant: a caller confined to one is refused (403). */
const REGISTRY = 'Data systems';

/**
 * The data-system registry's internal API (the gateway exposes it under /api/v1/data-systems). Every route is the
 * caller's own tenant's: another tenant's key is simply unknown (404).
 */
@Controller('internal/v1/data-systems')
export class DataSystemsController {
  constructor(
    private readonly systems: DataSystems,
    private readonly tasks: Tasks,
  ) {}

  @Get()
  async list(@TenantWidePrincipal(REGISTRY) principal: Principal): Promise<{ items: DataSystemView[] }> {
    return { items: await this.systems.list(principal.tenantId) };
  }

  @Get(':systemKey')
  get(@TenantWidePrincipal(REGISTRY) principal: Principal, @Param('systemKey') systemKey: string): Promise<DataSystemView> {
    return this.systems.view(principal.tenantId, systemKey);
  }

  /** 201 when the key had no live system, 200 when it replaced one (or found it the same). A replay under its Idempotency-Key answers 200. */
  @Put(':systemKey')
  @Idempotent({ ownTransactions: true })
  async put(@TenantWidePrincipal(REGISTRY) principal: Principal, @Param('systemKey') systemKey: string, @Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<DataSystemView> {
    const { created, system } = await this.systems.put(principal, principal.tenantId, systemKey, parseInput(dataSystemPut, body));
    // A system that is not paused (resumed by this PUT, or by one whose process died before this step: PUT it again)
    // starts its tasks that waited for it. Here, not in DataSystems: the tasks depend on the registry, not the reverse.
    if (!system.paused) await this.tasks.startWaiting(principal.tenantId, systemKey);
    res.status(created ? 201 : 200);
    return system;
  }

  @Delete(':systemKey')
  @HttpCode(204)
  async delete(@TenantWidePrincipal(REGISTRY) principal: Principal, @Param('systemKey') systemKey: string): Promise<void> {
    await this.systems.delete(principal, principal.tenantId, systemKey);
  }
}
