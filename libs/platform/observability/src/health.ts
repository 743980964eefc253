import { Controller, Get, Inject, Injectable, Optional, Res, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import { Metrics } from './metrics';

/** Something whose state decides whether the service may take traffic. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<boolean>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

@Injectable()
export class ReadinessRegistry {
  private readonly checks: ReadinessCheck[] = [];
  constructor(@Optional() @Inject(READINESS_CHECKS) initial?: ReadinessCheck[]) {
    this.checks.push(...(initial ?? []));
  }

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  async evaluate(timeoutMs = 2000): Promise<{ ready: boolean; checks: Record<string, 'up' | 'down'> }> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
        const ok = await Promise.race([c.check().catch(() => false), timeout]);
        return [c.name, ok ? 'up' : 'down'] as const;
      }),
    );
    return { ready: results.every(([, s]) => s === 'up'), checks: Object.fromEntries(results) };
  }
}

@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  /** The process is up and its event loop answers. */
  @Get('health/live')
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  /** The database and the bus answer: the service may take traffic. */
  @Get('health/ready')
  async ready(): Promise<{ status: 'up'; checks: Record<string, string> }> {
    const { ready, checks } = await this.readiness.evaluate();
    if (!ready) throw new ServiceUnavailableException({ status: 'down', checks });
    return { status: 'up', checks };
  }

  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    const { contentType, body } = await Metrics.get().expose();
    res.setHeader('Content-Type', contentType);
    res.send(body);
  }
}
