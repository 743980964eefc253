import type { NextFunction, Request, Response } from 'express';
import { Metrics } from '@dsar/platform/observability';

/** Records each request's duration under its route pattern (never the raw path, which holds ids). */
export function httpMetrics(service: string) {
  const histogram = Metrics.get().httpDuration;
  return (req: Request, res: Response, next: NextFunction) => {
    const end = histogram.startTimer({ service, method: req.method });
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl ?? ''}${req.route.path}` : 'unmatched';
      end({ route, status: String(res.statusCode) });
    });
    next();
  };
}
