/** The internal base URL of each service the gateway forwards to, by service name. */
export type Upstreams = Record<string, string>;

export const UPSTREAMS = Symbol('UPSTREAMS');

/** Asks a service whether it is ready; any failure or a slow answer counts as not ready. */
export async function upstreamReady(baseUrl: string, timeoutMs = 1500): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
