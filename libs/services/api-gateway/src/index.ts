import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import type { ServiceDefinition } from '@dsar/platform/host';
import { ApiGatewayModule } from './api-gateway.module';
import type { GatewaySettings } from './gateway-settings';
import { buildOpenApiDocument } from './openapi';
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

/** The interactive API reference at /api/docs, over the same document as /api/v1/openapi.json. */
function mountDocs(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument() as never, {
    raw: false,
    customSiteTitle: 'DSAR service API',
    swaggerOptions: { persistAuthorization: false, displayOperationId: true },
  });
}

export function apiGatewayService(upstreams: Upstreams, settings: GatewaySettings): ServiceDefinition {
  return {
    name: 'api-gateway',
    module: ApiGatewayModule.forRoot(upstreams, settings),
    persistence: false,
    edge: true,
    readsOwnBodies: true,
    configure: mountDocs,
  };
}
