/**
 * How the console signs in and where the API is: `/console/config.json`, which the gateway writes from its settings
 * (docs/console.md). Read once at start.
 */
export interface OidcConfig {
  /** The issuer's URL; its discovery document is read from it. */
  authority: string;
  clientId: string;
  scope: string;
  /** The API as a resource (RFC 8707), so that the access token names its audience; null: not sent. */
  resource: string | null;
}

export interface ConsoleConfig {
  apiBase: string;
  oidc: OidcConfig | null;
  /** Whether the gateway takes API keys for sign-in (embedded mode's development keys). */
  keySignIn: boolean;
}

export const CONFIG_URL = '/console/config.json';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `/api/v1/` as `/api/v1` (paths are appended with their own slash); a loop, not a pattern, so linear on any input. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The configuration in a config.json body, or an Error naming what is wrong with it. */
export function configFrom(value: unknown): ConsoleConfig | Error {
  if (!isRecord(value)) return new Error('config.json is not an object');
  const apiBase = value.apiBase;
  // Same origin only: the CSP allows no other for the API, and a token must never go elsewhere.
  if (!isText(apiBase) || !apiBase.startsWith('/') || apiBase.startsWith('//')) return new Error('config.json: apiBase must be a path on this origin');
  let oidc: OidcConfig | null = null;
  if (value.oidc !== null && value.oidc !== undefined) {
    const o = value.oidc;
    if (!isRecord(o) || !isText(o.authority) || !isText(o.clientId)) return new Error('config.json: oidc needs authority and clientId');
    if (!/^https?:\/\//i.test(o.authority)) return new Error('config.json: oidc.authority must be an http(s) URL');
    oidc = {
      authority: o.authority,
      clientId: o.clientId,
      scope: isText(o.scope) ? o.scope : 'openid profile',
      resource: isText(o.resource) ? o.resource : null,
    };
  }
  return { apiBase: withoutTrailingSlashes(apiBase), oidc, keySignIn: value.keySignIn === true };
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch(CONFIG_URL, { cache: 'no-store', credentials: 'omit' });
  if (!response.ok) throw new Error(`${CONFIG_URL} answered ${response.status}`);
  const config = configFrom(await response.json());
  if (config instanceof Error) throw config;
  return config;
}
