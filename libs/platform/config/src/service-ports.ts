import { z } from 'zod';

/**
 * Default HTTP ports of the services in distributed mode on one machine.
 * The gateway's default upstream URLs use them; Helm overrides them all.
 */
export const DEFAULT_SERVICE_PORTS = {
  'api-gateway': 8080,
  'intake-gateway': 3001,
  'lifecycle-clock': 3002,
  verification: 3003,
  'fulfilment-delivery': 3004,
  'audit-ledger': 3005,
  'policy-registry': 3006,
  notifier: 3007,
} as const;

export type ServiceName = keyof typeof DEFAULT_SERVICE_PORTS;

/** `audit-ledger` → `AUDIT_LEDGER_URL`: the gateway's setting for that upstream. */
export function upstreamUrlVariable(service: string): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_URL`;
}

/** Settings for the internal URLs of the services a process calls, defaulting to their local ports. */
export function upstreamUrlFields(services: readonly ServiceName[]) {
  return Object.fromEntries(services.map((s) => [upstreamUrlVariable(s), z.url().default(`http://127.0.0.1:${DEFAULT_SERVICE_PORTS[s]}`)])) as Record<string, z.ZodDefault<z.ZodURL>>;
}

/** The URLs those settings hold, by service name. */
export function upstreamUrlsFrom(config: object, services: readonly ServiceName[]): Record<string, string> {
  return Object.fromEntries(services.map((s) => [s, String((config as Record<string, unknown>)[upstreamUrlVariable(s)]).replace(/\/+$/, '')]));
}
