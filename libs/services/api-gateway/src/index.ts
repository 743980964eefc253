import type { INestApplication } from '@nestjs/common';
import type { ServiceDefinition } from '@dsar/platform/host';
import { ApiGatewayModule } from './api-gateway.module';
import type { GatewaySettings } from './gateway-settings';
import type { Upstreams } from './upstreams';

export { ApiGatewayModule } from './api-gateway.module';
export { UPSTREAMS, type Upstreams, upstreamReady } from './upstreams';
export * from './gateway-settings';
export { buildOpenApiDocument } from './openapi';
export { ROUTES } from './routes';
export type { GatewayRoute } from './route-types';
export { RouteMatcher } from './route-matcher';
export { type AuthorizationCase, authorizationCases } from './authorization-matrix';

/** The services behind the gateway, in the order the embedded runner starts them. */
export const UPSTREAM_SERVICES = ['intake-gateway', 'lifecycle-clock', 'verification', 'fulfilment-delivery', 'audit-ledger', 'policy-registry', 'notifier'] as const;

/** Lets Express take the client's address from X-Forwarded-For behind these proxies only (req.ip, clientKeyOf). */
function trustProxies(app: INestApplication, proxies: readonly string[]): void {
  if (proxies.length > 0) (app.getHttpAdapter().getInstance() as { set(setting: string, value: unknown): void }).set('trust proxy', [...proxies]);
}

export function apiGatewayService(upstreams: Upstreams, settings: GatewaySettings): ServiceDefinition {
  return {
    name: 'api-gateway',
    module: ApiGatewayModule.forRoot(upstreams, settings),
    persistence: false,
    edge: true,
    readsOwnBodies: true,
    configure: (app) => trustProxies(app, settings.trustedProxies ?? []),
  };
}
export * from './console-settings';
