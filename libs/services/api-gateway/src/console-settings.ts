import { resolve } from 'node:path';
import { z } from 'zod';
import { booleanFromEnv } from '@dsar/platform/config';

/**
 * How the gateway serves the operator console (`/console/`, docs/console.md): where its built files are, and how it
 * signs operators in. The console holds no state and calls only the public API, so these settings decide nothing
 * the API does not decide again.
 */
export interface ConsoleSettings {
  /** The folder of the built console (`npm run console:build`). */
  dir: string;
  /** OpenID Connect sign-in (authorization code with PKCE); undefined: none. */
  oidc?: {
    /** The issuer's identifier (its discovery document is `<issuer>/.well-known/openid-configuration`). */
    issuer: string;
    clientId: string;
    scope: string;
    /** The API as a resource (RFC 8707), asked for so that the access token names the gateway's audience. */
    resource?: string;
  };
  /** Whether the console offers sign-in with an API key (the quick start's development keys). */
  keySignIn: boolean;
}

/**
 * The folder of the person's download page inside the console's build (a second entry of its Vite build,
 * apps/console/vite.config.ts): `<CONSOLE_DIR>/portal/`, served under /portal/ (portal.controller.ts).
 */
export const PORTAL_FOLDER = 'portal';

/** The console's files of an installation: `dist/console` of the repository, or of the image. */
export const DEFAULT_CONSOLE_DIR = resolve(__dirname, '../../../../dist/console');
export const DEFAULT_CONSOLE_OIDC_SCOPE = 'openid profile';
/** An absolute URI, as RFC 8707 requires of a resource indicator: a scheme, a colon and more, no white space. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

/** Environment fields of the console, to spread into the gateway's config schema. */
export const consoleFields = {
  /** The folder of the built console; default dist/console of the installation. */
  CONSOLE_DIR: z.string().min(1).optional(),
  /** The OpenID Connect issuer operators sign in with; default AUTH_ISSUER when AUTH_JWKS_URL is set. */
  CONSOLE_OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).optional(),
  /** The console's client id at the issuer (a public client: PKCE, no secret). Without it the console has no OIDC sign-in. */
  CONSOLE_OIDC_CLIENT_ID: z.string().min(1).max(200).optional(),
  /** The scopes the console asks for. */
  CONSOLE_OIDC_SCOPE: z.string().min(1).max(500).default(DEFAULT_CONSOLE_OIDC_SCOPE),
  /** The resource indicator (RFC 8707, an absolute URI) the console asks a token for; default AUTH_AUDIENCE when it is one. */
  CONSOLE_OIDC_RESOURCE: z.string().max(500).regex(ABSOLUTE_URI, 'an absolute URI (https://api.example.org, urn:example:dsar)').optional(),
  /** Whether the console offers sign-in with an API key; default: only when it has no OIDC sign-in. */
  CONSOLE_KEY_SIGN_IN: booleanFromEnv.optional(),
};

export interface ConsoleConfig {
  CONSOLE_DIR?: string;
  CONSOLE_OIDC_ISSUER?: string;
  CONSOLE_OIDC_CLIENT_ID?: string;
  CONSOLE_OIDC_SCOPE?: string;
  CONSOLE_OIDC_RESOURCE?: string;
  CONSOLE_KEY_SIGN_IN?: boolean;
  AUTH_JWKS_URL?: string;
  AUTH_ISSUER?: string;
  AUTH_AUDIENCE?: string;
}

export function consoleSettingsFrom(config: ConsoleConfig): ConsoleSettings {
  const issuer = config.CONSOLE_OIDC_ISSUER ?? (config.AUTH_JWKS_URL ? config.AUTH_ISSUER : undefined);
  // An audience that is not an absolute URI (`dsar-api`) cannot be a resource indicator: the issuer decides the
  // token's audience by its own settings then (a default resource, an audience mapper).
  const audience = config.AUTH_AUDIENCE !== undefined && ABSOLUTE_URI.test(config.AUTH_AUDIENCE) ? config.AUTH_AUDIENCE : undefined;
  const resource = config.CONSOLE_OIDC_RESOURCE ?? audience;
  const oidc =
    issuer && config.CONSOLE_OIDC_CLIENT_ID
      ? { issuer, clientId: config.CONSOLE_OIDC_CLIENT_ID, scope: config.CONSOLE_OIDC_SCOPE ?? DEFAULT_CONSOLE_OIDC_SCOPE, ...(resource ? { resource } : {}) }
      : undefined;
  return { dir: config.CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR, ...(oidc ? { oidc } : {}), keySignIn: config.CONSOLE_KEY_SIGN_IN ?? !oidc };
}

/** A client id without an issuer to use it with is a mistake worth refusing at start, not a console without sign-in. */
export function requireConsoleSettings(value: ConsoleConfig, ctx: z.RefinementCtx): void {
  if (value.CONSOLE_OIDC_CLIENT_ID && !value.CONSOLE_OIDC_ISSUER && !(value.AUTH_JWKS_URL && value.AUTH_ISSUER)) {
    ctx.addIssue({ code: 'custom', path: ['CONSOLE_OIDC_ISSUER'], message: 'set CONSOLE_OIDC_ISSUER (or AUTH_JWKS_URL with AUTH_ISSUER): CONSOLE_OIDC_CLIENT_ID names a client of no issuer' });
  }
  if (value.CONSOLE_OIDC_ISSUER && !value.CONSOLE_OIDC_CLIENT_ID) {
    ctx.addIssue({ code: 'custom', path: ['CONSOLE_OIDC_CLIENT_ID'], message: "set CONSOLE_OIDC_CLIENT_ID: the console's client id at CONSOLE_OIDC_ISSUER" });
  }
}
