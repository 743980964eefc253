import { configFrom } from './config';

describe("reading the console's config.json", () => {
  it('takes a configuration with an issuer', () => {
    const config = configFrom({
      apiBase: '/api/v1',
      oidc: { authority: 'https://id.example.com/realms/privacy', clientId: 'dsar-console', scope: 'openid profile', resource: 'dsar-api' },
      keySignIn: false,
    });
    expect(config).toEqual({
      apiBase: '/api/v1',
      oidc: { authority: 'https://id.example.com/realms/privacy', clientId: 'dsar-console', scope: 'openid profile', resource: 'dsar-api' },
      keySignIn: false,
    });
  });

  it('takes one without an issuer, for sign-in with a key, and a base path with a trailing slash', () => {
    expect(configFrom({ apiBase: '/api/v1/', oidc: null, keySignIn: true })).toEqual({ apiBase: '/api/v1', oidc: null, keySignIn: true });
  });

  it('defaults the scope, and leaves out an empty resource', () => {
    expect(configFrom({ apiBase: '/api/v1', oidc: { authority: 'http://127.0.0.1:9000', clientId: 'c', resource: null }, keySignIn: false })).toMatchObject({
      oidc: { scope: 'openid profile', resource: null },
    });
  });

  it('refuses an API on another origin, an issuer that is no http(s) URL, and what is not a configuration', () => {
    expect(configFrom({ apiBase: 'https://elsewhere.example/api/v1', oidc: null })).toBeInstanceOf(Error);
    expect(configFrom({ apiBase: '//elsewhere.example/api/v1', oidc: null })).toBeInstanceOf(Error);
    expect(configFrom({ apiBase: '/api/v1', oidc: { authority: 'javascript:alert(1)', clientId: 'c' } })).toBeInstanceOf(Error);
    expect(configFrom({ apiBase: '/api/v1', oidc: { authority: 'https://id.example.com' } })).toBeInstanceOf(Error);
    expect(configFrom(null)).toBeInstanceOf(Error);
    expect(configFrom('text')).toBeInstanceOf(Error);
  });

  it('takes keySignIn only when it is true', () => {
    expect(configFrom({ apiBase: '/api/v1', oidc: null, keySignIn: 'yes' })).toMatchObject({ keySignIn: false });
  });
});
