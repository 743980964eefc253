import { isIP } from 'node:net';
import { z } from 'zod';
import { type AuthConfig, authConfigFields, type AuthSettings, authSettingsFrom, requireAuthSettings } from '@dsar/platform/auth';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from '@dsar/platform/http';
import { type ConsoleConfig, consoleFields, type ConsoleSettings, consoleSettingsFrom, requireConsoleSettings } from './console-settings';

/** What the gateway needs besides its upstreams: how to authenticate, and its limits. */
export interface GatewaySettings {
  auth: AuthSettings;
  /** Requests per minute per caller; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /**
   * Requests per minute per client address that end without a caller the
   * gateway authenticated (no token, a bad one, an unknown path); 0 or absent
   * turns the limit off. A request with a valid token never counts.
   */
  unauthenticatedRateLimitPerMinute?: number;
  /** Webhook deliveries per minute per client address; 0 or absent turns the limit off. */
  webhookRateLimitPerMinute?: number;
  /** Calls of the person's download page (`/api/v1/portal/…`) per minute per client address; 0 or absent turns the limit off. */
  portalRateLimitPerMinute?: number;
  /**
   * The proxies in front of the gateway whose X-Forwarded-For is believed
   * when telling clients apart (Express's `trust proxy`: addresses, CIDR
   * ranges, `loopback`, `linklocal`, `uniquelocal`). Empty or absent: the
   * connection's peer is the client.
   */
  trustedProxies?: readonly string[];
  upstreamTimeoutMs: number;
  /**
   * How long an upload (a route with `upload`) may go without a byte of its
   * body moving before the gateway gives up with 504; an upload has no total
   * deadline. Default DEFAULT_BODY_IDLE_TIMEOUT_MS.
   */
  uploadIdleTimeoutMs?: number;
  bodyLimit: string;
  /** The operator console under /console/; default: the built files of the installation, key sign-in only. */
  console?: ConsoleSettings;
}

/** Requests per minute per client address without an authenticated caller, unless configured. */
export const DEFAULT_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE = 60;
/** Webhook deliveries per minute per client address, unless configured: above Slack's 30,000 events an hour per workspace. */
export const DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE = 600;
/**
 * Calls of the person's download page per minute per client address, unless configured: a person opening a link
 * makes two calls and one per file; a guesser of codes is stopped by the link's lock long before.
 */
export const DEFAULT_PORTAL_RATE_LIMIT_PER_MINUTE = 60;

/** The names Express's `trust proxy` takes for ranges of its own. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether a TRUSTED_PROXIES entry is an address, a CIDR range or one of Express's range names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !isIP(address)) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128);
}

/** Environment fields of the gateway, to spread into a config schema. */
export const gatewayFields = {
  ...authConfigFields,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * Requests per minute per client address that end without an authenticated caller (401, and a 400, 404 or 405
   * answered before authentication to a request without a valid token); over it, 429. Default
   * DEFAULT_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE, or 0 (off) when RATE_LIMIT_PER_MINUTE is 0.
   */
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  /** Webhook deliveries per minute per client address. Default DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE, or 0 (off) when RATE_LIMIT_PER_MINUTE is 0. */
  WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  /** Calls of the person's download page per minute per client address. Default DEFAULT_PORTAL_RATE_LIMIT_PER_MINUTE, or 0 (off) when RATE_LIMIT_PER_MINUTE is 0. */
  PORTAL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  /** A comma list of the proxies whose X-Forwarded-For tells the client's address (see GatewaySettings.trustedProxies). */
  TRUSTED_PROXIES: z
    .string()
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ])
    .refine((entries) => entries.every(isProxyEntry), 'a comma list of IP addresses, CIDR ranges (10.0.0.0/8), loopback, linklocal or uniquelocal')
    .optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(DEFAULT_UPSTREAM_TIMEOUT_MS),
  /**
   * Milliseconds an upload through the gateway may go without a byte of its
   * body moving (the client stalls, or the service stops reading) before the
   * gateway gives up with 504. An idle deadline, not a total one: a large
   * upload takes as long as it needs while it moves; after its last byte the
   * service has UPSTREAM_TIMEOUT_MS to answer.
   */
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(DEFAULT_BODY_IDLE_TIMEOUT_MS),
  ...consoleFields,
};

export interface GatewayConfig extends AuthConfig, ConsoleConfig {
  RATE_LIMIT_PER_MINUTE: number;
  UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE?: number;
  WEBHOOK_RATE_LIMIT_PER_MINUTE?: number;
  PORTAL_RATE_LIMIT_PER_MINUTE?: number;
  TRUSTED_PROXIES?: string[];
  UPSTREAM_TIMEOUT_MS: number;
  UPLOAD_IDLE_TIMEOUT_MS?: number;
  HTTP_BODY_LIMIT: string;
}

export function gatewaySettingsFrom(config: GatewayConfig): GatewaySettings {
  return {
    auth: authSettingsFrom(config),
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    ...addressRateLimitsFrom(config),
    trustedProxies: config.TRUSTED_PROXIES ?? [],
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadIdleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_MS ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    bodyLimit: config.HTTP_BODY_LIMIT,
    console: consoleSettingsFrom(config),
  };
}

/**
 * The per-address budgets: as configured, else their defaults, else off when the
 * per-caller limit is off (RATE_LIMIT_PER_MINUTE=0 turns rate limiting off as a
 * whole, as benchmarks and a gateway behind a limiting proxy want).
 */
export function addressRateLimitsFrom(
  config: Pick<GatewayConfig, 'RATE_LIMIT_PER_MINUTE' | 'UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE' | 'WEBHOOK_RATE_LIMIT_PER_MINUTE' | 'PORTAL_RATE_LIMIT_PER_MINUTE'>,
): Pick<GatewaySettings, 'unauthenticatedRateLimitPerMinute' | 'webhookRateLimitPerMinute' | 'portalRateLimitPerMinute'> {
  const off = config.RATE_LIMIT_PER_MINUTE === 0;
  return {
    unauthenticatedRateLimitPerMinute: config.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE ?? (off ? 0 : DEFAULT_UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE),
    webhookRateLimitPerMinute: config.WEBHOOK_RATE_LIMIT_PER_MINUTE ?? (off ? 0 : DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE),
    portalRateLimitPerMinute: config.PORTAL_RATE_LIMIT_PER_MINUTE ?? (off ? 0 : DEFAULT_PORTAL_RATE_LIMIT_PER_MINUTE),
  };
}

/**
 * A gateway process of its own must be told how to authenticate: with no
 * keys and no JWT settings it would turn every caller away, so it refuses to
 * start instead. (The embedded runner makes a development key.)
 */
export function requireGatewaySettings(value: AuthConfig & ConsoleConfig, ctx: z.RefinementCtx): void {
  requireAuthSettings(value, ctx);
  requireConsoleSettings(value, ctx);
  if (!value.DSAR_API_KEYS?.length && !value.AUTH_JWT_SECRET && !value.AUTH_JWKS_URL) {
    ctx.addIssue({ code: 'custom', path: ['DSAR_API_KEYS'], message: 'set DSAR_API_KEYS, AUTH_JWT_SECRET or AUTH_JWKS_URL: the gateway has no way to authenticate callers' });
  }
}
