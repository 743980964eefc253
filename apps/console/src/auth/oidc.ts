import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { OidcConfig } from '../config';
import { oidcClientSettings } from './oidc-settings';

/**
 * The OpenID Connect client: tokens in memory only (a reload signs in again, silently while the issuer's session
 * lasts); only a sign-in in progress (its state and PKCE verifier, never a token) goes through sessionStorage, which
 * must outlive the redirect to the issuer and back.
 */
export function userManagerFor(oidc: OidcConfig, origin = window.location.origin): UserManager {
  return new UserManager({
    ...oidcClientSettings(oidc, origin),
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
}

/** The hidden frame of a silent renewal (`/console/renewed`): hands the issuer's answer to the page and draws nothing. */
export async function completeSilentRenewal(oidc: OidcConfig): Promise<void> {
  await userManagerFor(oidc).signinSilentCallback();
}
