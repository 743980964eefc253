import type { ServiceDefinition } from '@dsar/platform/host';
import { ApiGatewayModule } from './api-gateway.module';
import type { Upstreams } from './upstreams';

export { ApiGatewayModule } from './api-gateway.module';
export { UPSTREAMS, type Upstreams, upstreamReady } from './upstreams';

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

export function apiGatewayService(upstreams: Upstreams): ServiceDefinition {
  return { name: 'api-gateway', module: ApiGatewayModule.forRoot(upstreams), persistence: false };
}
