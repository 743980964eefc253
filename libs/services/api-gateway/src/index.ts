import type { ServiceDefinition } from '@dsar/platform/host';
import { ApiGatewayModule } from './api-gateway.module';
import type { GatewaySettings } from './gateway-settings';
import type { Upstreams } from './upstreams';

export { ApiGatewayModule } from './api-gateway.module';
export { UPSTREAMS, type Upstreams, upstreamReady } from './upstreams';
export * from './gateway-settings';
export { buildOpenApiDocument } from './openapi';
export { ROUTES, type GatewayRoute } from './routes';

/** The services behind the gateway, in the order the embedded runner starts them. */
export const UPSTREAM_SERVICES = [
  'intake-gateway',
  'lifecycle-clock',
  'verification',
  'fulfilment-delivery',
  'audit-ledger',
  'policy-registry',
  'notifier',
] as const;

export function apiGatewayService(upstreams: Upstreams, settings: GatewaySettings): ServiceDefinition {
  return {
    name: 'api-gateway',
    module: ApiGatewayModule.forRoot(upstreams, settings),
    persistence: false,
    edge: true,
    readsOwnBodies: true,
  };
}
