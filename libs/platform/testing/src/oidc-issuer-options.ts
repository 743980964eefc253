import { z } from 'zod';

/**
 * What the test issuer (oidc-issuer.ts starts it, oidc-issuer-process.ts is its process) is told: the parent checks
 * the options before it starts the process, which reads them again from its environment.
 */

const clientSchema = z.object({
  clientId: z.string().min(1),
  redirectUris: z.array(z.url()).min(1),
  postLogoutRedirectUris: z.array(z.url()).default([]),
});

const accountSchema = z.object({
  tenantId: z.string().min(1),
  workspaceId: z.string().min(1).optional(),
  roles: z.array(z.string()),
  name: z.string().min(1),
});

export const testIssuerOptionsSchema = z.object({
  /** Public clients (no secret) that must use PKCE, such as a browser app. */
  clients: z.array(clientSchema).min(1),
  /** The `aud` of the access tokens: the API's audience. */
  audience: z.string().min(1),
  /** The people who can sign in, by login name (the login is the tokens' `sub`). */
  accounts: z.record(z.string().min(1), accountSchema),
  accessTokenTtlSeconds: z.number().int().positive().default(600),
});

export type TestIssuerClient = z.input<typeof clientSchema>;
export type TestIssuerAccount = z.infer<typeof accountSchema>;
export type TestIssuerOptions = z.input<typeof testIssuerOptionsSchema>;
export type TestIssuerSettings = z.infer<typeof testIssuerOptionsSchema>;

/**
 * The resource indicator (RFC 8707) of the API. It must be an absolute URI, which an audience such as `dsar-api` is
 * not; the tokens' `aud` is the audience either way. A client that names no resource gets this one.
 */
export function resourceIndicatorFor(audience: string): string {
  return URL.canParse(audience) ? audience : `urn:dsar:test-issuer:resource:${encodeURIComponent(audience)}`;
}

/** The environment variables the issuer's process reads. */
export const ISSUER_OPTIONS_ENV = 'DSAR_TEST_ISSUER_OPTIONS';
export const ISSUER_PORT_ENV = 'DSAR_TEST_ISSUER_PORT';
/** The line the process prints once it accepts connections, followed by the issuer's URL. */
export const ISSUER_READY_LINE = 'test-issuer: ready at ';
