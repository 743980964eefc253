import type { EventCatalog } from '@dsar/contracts';
import { gatewayHostConfig, type HostConfig, type HostedService, hostService, type ServiceDefinition } from '@dsar/platform/host';
import { PgliteHost } from '@dsar/platform/persistence';
import { apiGatewayService } from '@dsar/services/api-gateway';
import { auditLedgerService } from '@dsar/services/audit-ledger';
import { fulfilmentDeliveryService } from '@dsar/services/fulfilment-delivery';
import { intakeGatewayService } from '@dsar/services/intake-gateway';
import { lifecycleClockService } from '@dsar/services/lifecycle-clock';
import { notifierService } from '@dsar/services/notifier';
import { policyRegistryService } from '@dsar/services/policy-registry';
import { verificationService } from '@dsar/services/verification';

/** The domain services, in start order (the gateway comes last, once they all answer). */
export const DOMAIN_SERVICES: ServiceDefinition[] = [
  policyRegistryService,
  lifecycleClockService,
  intakeGatewayService,
  verificationService,
  fulfilmentDeliveryService,
  auditLedgerService,
  notifierService,
];

export interface RunningSystem {
  readonly gatewayUrl: string;
  readonly services: ReadonlyMap<string, HostedService>;
  close(): Promise<void>;
}

/**
 * Starts all eight services in this process: each is its own Nest app on a
 * loopback port, the gateway listens on PORT. Consumers join before any relay
 * publishes, so no event goes out before its consumers listen.
 */
export async function startSystem(config: HostConfig, options: { catalog?: EventCatalog } = {}): Promise<RunningSystem> {
  const services = new Map<string, HostedService>();
  const started: HostedService[] = [];
  const close = async () => {
    for (const s of started.reverse()) await s.close().catch(() => undefined);
    if (config.DB_DRIVER === 'pglite') await PgliteHost.closeAll();
  };
  try {
    for (const definition of DOMAIN_SERVICES) {
      const hosted = await hostService(definition, { ...config, HOST: '127.0.0.1', PORT: 0 }, { catalog: options.catalog, logName: 'dsar' });
      started.push(hosted);
      services.set(definition.name, hosted);
    }
    const upstreams = Object.fromEntries([...services].map(([name, s]) => [name, s.url]));
    const gateway = await hostService(apiGatewayService(upstreams), gatewayHostConfig(config), { logName: 'dsar' });
    started.push(gateway);
    services.set('api-gateway', gateway);
    for (const s of started) await s.startConsuming();
    for (const s of started) s.startPublishing();
    return { gatewayUrl: gateway.url, services, close };
  } catch (e) {
    await close();
    throw e;
  }
}
