import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { errors, Provider, type IssuedToken, type ProviderContext } from 'oidc-provider';
import { resourceIndicatorFor, type TestIssuerSettings } from './oidc-issuer-options';
import { errorPage, signedOutPage, signOutPage } from './oidc-issuer-pages';

/** Long enough for any test; the access tokens' lifetime is the option that matters. */
const SESSION_TTL_SECONDS = 4 * 60 * 60;
const ONE_HOUR = 60 * 60;

/** A fresh RS256 signing key per issuer process: nothing signed by an earlier run verifies. */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

/**
 * An oidc-provider for the given clients and accounts: public clients with PKCE, access tokens as RS256 JWTs for the
 * API's audience carrying the claims the gateway reads (tenant_id, workspace_id, roles), refresh tokens only for
 * `offline_access`. Sign-in and consent are the process's own routes (oidc-issuer-process.ts).
 */
export function testIssuerProvider(issuer: string, settings: TestIssuerSettings): Provider {
  const indicator = resourceIndicatorFor(settings.audience);
  const accountOf = (login: string | undefined) => (login !== undefined && Object.hasOwn(settings.accounts, login) ? settings.accounts[login] : undefined);

  return new Provider(issuer, {
    clients: settings.clients.map((client) => ({
      client_id: client.clientId,
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    })),
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'offline_access'],
    claims: { openid: ['sub'], profile: ['name'] },
    async findAccount(_ctx: ProviderContext, sub: string) {
      const account = accountOf(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: account.name }) };
    },
    extraTokenClaims(_ctx: ProviderContext, token: IssuedToken) {
      const account = accountOf(token.accountId);
      if (token.kind !== 'AccessToken' || !account) return undefined;
      return { tenant_id: account.tenantId, ...(account.workspaceId ? { workspace_id: account.workspaceId } : {}), roles: account.roles };
    },
    pkce: { required: () => true },
    // The console's origin calls the token endpoint: allow the origins of the client's redirect URIs.
    clientBasedCORS(_ctx: ProviderContext, origin: string, client: { redirectUris: string[] }) {
      return client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin);
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => indicator,
        // The token request may leave the resource out: the one of the grant it is.
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx: ProviderContext, resource: string) {
          if (resource !== indicator) throw new errors.InvalidTarget(`this issuer knows only the resource ${indicator}`);
          return {
            scope: '',
            audience: settings.audience,
            accessTokenTTL: settings.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx: ProviderContext, form: string) {
          ctx.type = 'html';
          ctx.body = signOutPage(form);
        },
        postLogoutSuccessSource(ctx: ProviderContext) {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
    },
    renderError(ctx: ProviderContext, out: Record<string, unknown>) {
      ctx.type = 'html';
      ctx.body = errorPage(out);
    },
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: ONE_HOUR,
      RefreshToken: SESSION_TTL_SECONDS,
      Interaction: ONE_HOUR,
      Session: SESSION_TTL_SECONDS,
      Grant: SESSION_TTL_SECONDS,
    },
  });
}
