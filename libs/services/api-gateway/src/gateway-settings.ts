import { z } from 'zod';
import { type AuthConfig, authConfigFields, type AuthSettings, authSettingsFrom, requireAuthSettings } from '@dsar/platform/auth';
import { DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from '@dsar/platform/http';

/** What the gateway needs besides its upstreams: how to authenticate, and its limits. */
export interface GatewaySettings {
  auth: AuthSettings;
  /** Requests per minute per caller; 0 turns the limit off. */
  rateLimitPerMinute: number;
  upstreamTimeoutMs: number;
  /**
   * How long an upload (a route with `upload`) may go without a byte of its
   * body moving before the gateway gives up with 504; an upload has no total
   * deadline. Default DEFAULT_BODY_IDLE_TIMEOUT_MS.
   */
  uploadIdleTimeoutMs?: number;
  bodyLimit: string;
}

/** Environment fields of the gateway, to spread into a config schema. */
export const gatewayFields = {
  ...authConfigFields,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(DEFAULT_UPSTREAM_TIMEOUT_MS),
  /**
   * Milliseconds an upload through the gateway may go without a byte of its
   * body moving (the client stalls, or the service stops reading) before the
   * gateway gives up with 504. An idle deadline, not a total one: a large
   * upload takes as long as it needs while it moves; after its last byte the
   * service has UPSTREAM_TIMEOUT_MS to answer.
   */
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(DEFAULT_BODY_IDLE_TIMEOUT_MS),
};

export interface GatewayConfig extends AuthConfig {
  RATE_LIMIT_PER_MINUTE: number;
  UPSTREAM_TIMEOUT_MS: number;
  UPLOAD_IDLE_TIMEOUT_MS?: number;
  HTTP_BODY_LIMIT: string;
}

export function gatewaySettingsFrom(config: GatewayConfig): GatewaySettings {
  return {
    auth: authSettingsFrom(config),
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadIdleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_MS ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    bodyLimit: config.HTTP_BODY_LIMIT,
  };
}

/**
 * A gateway process of its own must be told how to authenticate: with no
 * keys and no JWT settings it would turn every caller away, so it refuses to
 * start instead. (The embedded runner makes a development key.)
 */
export function requireGatewaySettings(value: AuthConfig, ctx: z.RefinementCtx): void {
  requireAuthSettings(value, ctx);
  if (!value.DSAR_API_KEYS?.length && !value.AUTH_JWT_SECRET && !value.AUTH_JWKS_URL) {
    ctx.addIssue({ code: 'custom', path: ['DSAR_API_KEYS'], message: 'set DSAR_API_KEYS, AUTH_JWT_SECRET or AUTH_JWKS_URL: the gateway has no way to authenticate callers' });
  }
}

