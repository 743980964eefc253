import { oidcClientSettings } from './oidc-settings';

describe('the settings of the OpenID Connect client', () => {
  const oidc = { authority: 'https://id.example.com/realms/privacy', clientId: 'dsar-console', scope: 'openid profile', resource: 'dsar-api' };

  it('signs in with the authorization code, back at the addresses the client is registered with, renewing silently', () => {
    expect(oidcClientSettings(oidc, 'https://dsar.example.com')).toEqual({
      authority: 'https://id.example.com/realms/privacy',
      client_id: 'dsar-console',
      redirect_uri: 'https://dsar.example.com/console/signed-in',
      silent_redirect_uri: 'https://dsar.example.com/console/renewed',
      post_logout_redirect_uri: 'https://dsar.example.com/console/',
      response_type: 'code',
      scope: 'openid profile',
      extraQueryParams: { resource: 'dsar-api' },
      extraTokenParams: { resource: 'dsar-api' },
      automaticSilentRenew: true,
      monitorSession: false,
      loadUserInfo: false,
    });
  });

  it('sends no resource when none is configured', () => {
    const settings = oidcClientSettings({ ...oidc, resource: null }, 'http://127.0.0.1:8080');
    expect(settings).not.toHaveProperty('extraQueryParams');
    expect(settings).not.toHaveProperty('extraTokenParams');
  });
});
