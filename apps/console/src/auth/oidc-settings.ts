import type { OidcConfig } from '../config';
import { BASE_PATH } from '../router';

/**
 * The settings of the OpenID Connect client (authorization code with PKCE, docs/console.md), without its stores:
 * oidc.ts adds those. The issuer sends the browser back to `/console/signed-in` after a sign-in, to
 * `/console/renewed` in the hidden frame of a silent renewal, and to `/console/` after a sign-out: the addresses the
 * client is registered with at the issuer.
 */
export interface OidcClientSettings {
  authority: string;
  client_id: string;
  redirect_uri: string;
  silent_redirect_uri: string;
  post_logout_redirect_uri: string;
  response_type: 'code';
  scope: string;
  extraQueryParams?: Record<string, string>;
  extraTokenParams?: Record<string, string>;
  automaticSilentRenew: true;
  monitorSession: false;
  loadUserInfo: false;
}

export const SIGNED_IN_PATH = `${BASE_PATH}signed-in`;
export const RENEWED_PATH = `${BASE_PATH}renewed`;

export function oidcClientSettings(oidc: OidcConfig, origin: string): OidcClientSettings {
  // The API as a resource (RFC 8707) on both legs, so that the access token is issued for the API's audience.
  const resource = oidc.resource ? { resource: oidc.resource } : null;
  return {
    authority: oidc.authority,
    client_id: oidc.clientId,
    redirect_uri: `${origin}${SIGNED_IN_PATH}`,
    silent_redirect_uri: `${origin}${RENEWED_PATH}`,
    post_logout_redirect_uri: `${origin}${BASE_PATH}`,
    response_type: 'code',
    scope: oidc.scope,
    ...(resource ? { extraQueryParams: resource, extraTokenParams: resource } : {}),
    automaticSilentRenew: true,
    // Session monitoring polls the issuer in a frame; renewal and the API's 401 already end a session that is over.
    monitorSession: false,
    loadUserInfo: false,
  };
}
