import { z } from 'zod';
import { apiKeysJsonSchema, type ApiKeyEntry } from './api-keys';
import type { AuthSettings } from './authenticator';
import { MIN_JWT_SECRET_LENGTH } from './jwt';

/** Environment fields of authentication, to spread into an app's config schema. */
export const authConfigFields = {
  /** JSON array of {token, tenantId, workspaceId?, roles}. */
  DSAR_API_KEYS: apiKeysJsonSchema.optional(),
  /** Shared secret of HS256 JWTs. */
  AUTH_JWT_SECRET: z.string().min(MIN_JWT_SECRET_LENGTH, `must be at least ${MIN_JWT_SECRET_LENGTH} characters`).optional(),
  /** JWKS of an OIDC issuer; needs AUTH_ISSUER and AUTH_AUDIENCE. */
  AUTH_JWKS_URL: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).optional(),
  /** Expected `iss`: required with AUTH_JWKS_URL, checked for HS256 tokens when set. */
  AUTH_ISSUER: z.string().optional(),
  /** Expected `aud`: required with AUTH_JWKS_URL, checked for HS256 tokens when set. */
  AUTH_AUDIENCE: z.string().optional(),
};

export interface AuthConfig {
  DSAR_API_KEYS?: ApiKeyEntry[];
  AUTH_JWT_SECRET?: string;
  AUTH_JWKS_URL?: string;
  AUTH_ISSUER?: string;
  AUTH_AUDIENCE?: string;
}

export function authSettingsFrom(config: AuthConfig): AuthSettings {
  return {
    apiKeys: config.DSAR_API_KEYS ?? [],
    jwtSecret: config.AUTH_JWT_SECRET,
    jwksUrl: config.AUTH_JWKS_URL,
    issuer: config.AUTH_ISSUER,
    audience: config.AUTH_AUDIENCE,
  };
}

/**
 * Cross-field rule, for `.superRefine(requireAuthSettings, everyProblem)`:
 * a JWKS without an expected issuer and audience would accept any token the
 * issuer signs, for any of its clients.
 */
export function requireAuthSettings(value: Pick<AuthConfig, 'AUTH_JWKS_URL' | 'AUTH_ISSUER' | 'AUTH_AUDIENCE'>, ctx: z.RefinementCtx): void {
  if (!value.AUTH_JWKS_URL) return;
  if (!value.AUTH_ISSUER) ctx.addIssue({ code: 'custom', path: ['AUTH_ISSUER'], message: 'required when AUTH_JWKS_URL is set' });
  if (!value.AUTH_AUDIENCE) ctx.addIssue({ code: 'custom', path: ['AUTH_AUDIENCE'], message: 'required when AUTH_JWKS_URL is set' });
}
