import { type DynamicModule, Module } from '@nestjs/common';
import { READINESS_CHECKS, type ReadinessCheck } from '@dsar/platform/observability';
import { UPSTREAMS, type Upstreams, upstreamReady } from './upstreams';

/**
 * The external REST surface. It holds no domain state: it authenticates,
 * scopes and forwards to the owning services. It is ready when every
 * upstream service answers its own readiness probe.
 */
@Module({})
export class ApiGatewayModule {
  static forRoot(upstreams: Upstreams): DynamicModule {
    return {
      module: ApiGatewayModule,
      global: true,
      providers: [
        { provide: UPSTREAMS, useValue: upstreams },
        {
          provide: READINESS_CHECKS,
          useValue: Object.entries(upstreams).map(
            ([name, url]): ReadinessCheck => ({ name, check: () => upstreamReady(url) }),
          ),
        },
      ],
      exports: [UPSTREAMS, READINESS_CHECKS],
    };
  }
}
