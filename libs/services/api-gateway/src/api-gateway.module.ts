import { type DynamicModule, Module } from '@nestjs/common';
import { READINESS_CHECKS, type ReadinessCheck } from '@dsar/platform/observability';
import { ApiDocsController } from './api-docs.controller';
import { ConsoleController } from './console.controller';
import { consoleSettingsFrom } from './console-settings';
import { Forwarder } from './forwarder';
import { GatewayController } from './gateway.controller';
import type { GatewaySettings } from './gateway-settings';
import { CONSOLE_SETTINGS, GATEWAY_SETTINGS } from './gateway-tokens';
import { OpenApiController } from './openapi.controller';
import { PortalController } from './portal.controller';
import { UPSTREAMS, type Upstreams, upstreamReady } from './upstreams';

/**
 * The external REST surface. It holds no domain state: it authenticates,
 * scopes and forwards to the owning services. It is ready when every
 * upstream service answers its own readiness probe.
 */
@Module({})
export class ApiGatewayModule {
  static forRoot(upstreams: Upstreams, settings: GatewaySettings): DynamicModule {
    return {
      module: ApiGatewayModule,
      global: true,
      // The OpenAPI routes are registered before the catch-all gateway route.
      controllers: [OpenApiController, ApiDocsController, ConsoleController, PortalController, GatewayController],
      providers: [
        { provide: UPSTREAMS, useValue: upstreams },
        { provide: GATEWAY_SETTINGS, useValue: settings },
        { provide: CONSOLE_SETTINGS, useValue: settings.console ?? consoleSettingsFrom({}) },
        Forwarder,
        {
          provide: READINESS_CHECKS,
          useValue: Object.entries(upstreams).map(([name, url]): ReadinessCheck => ({ name, check: () => upstreamReady(url) })),
        },
      ],
      exports: [UPSTREAMS, READINESS_CHECKS],
    };
  }
}
