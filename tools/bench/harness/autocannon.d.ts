// The part of autocannon's API (8.x) the harness uses; the package ships no types.
declare module 'autocannon' {
  namespace autocannon {
    interface AutocannonRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }

    interface AutocannonOptions extends AutocannonRequest {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      /** Seconds. */
      timeout?: number;
      pipelining?: number;
      overallRate?: number;
      connectionRate?: number;
      requests?: AutocannonRequest[];
      excludeErrorStats?: boolean;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      [percentile: string]: number;
    }

    interface AutocannonResult {
      duration: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends PromiseLike<AutocannonResult> {
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    }
  }

  function autocannon(options: autocannon.AutocannonOptions): autocannon.Instance;
  export = autocannon;
}
