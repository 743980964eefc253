import { z } from 'zod';
import { ConfigError, everyProblem, loadConfig } from '@dsar/platform/config';
import { apiKeyId } from './api-keys';
import { Authenticator } from './authenticator';
import { authConfigFields, authSettingsFrom, requireAuthSettings } from './config';

const schema = z.object(authConfigFields).superRefine(requireAuthSettings, everyProblem);
const TOKEN = 'config-key-0123456789abcdef';

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig('api-gateway', schema, env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('authConfigFields', () => {
  it('turns the environment into settings an Authenticator accepts', async () => {
    const config = loadConfig('api-gateway', schema, {
      DSAR_API_KEYS: JSON.stringify([{ token: TOKEN, tenantId: 'acme', roles: ['admin'] }]),
      AUTH_JWT_SECRET: 's'.repeat(32),
    });
    const settings = authSettingsFrom(config);
    expect(settings).toEqual({
      apiKeys: [{ token: TOKEN, tenantId: 'acme', roles: ['admin'] }],
      jwtSecret: 's'.repeat(32),
      jwksUrl: undefined,
      issuer: undefined,
      audience: undefined,
    });
    const principal = await new Authenticator(settings).authenticate(`Bearer ${TOKEN}`);
    expect(principal.id).toBe(apiKeyId(TOKEN));
  });

  it('configures nothing when nothing is set', () => {
    const settings = authSettingsFrom(loadConfig('api-gateway', schema, {}));
    expect(settings.apiKeys).toEqual([]);
    expect(new Authenticator(settings).configured).toBe(false);
  });

  it('names the problem of a malformed DSAR_API_KEYS without echoing any token', () => {
    const duplicate = configErrorOf({
      DSAR_API_KEYS: JSON.stringify([
        { token: TOKEN, tenantId: 'acme', roles: ['admin'] },
        { token: TOKEN, tenantId: 'acme', roles: ['superuser'] },
      ]),
    });
    expect(duplicate.problems).toEqual(['DSAR_API_KEYS.1.roles.0: must be one of admin, operator, auditor, intake, connector', 'DSAR_API_KEYS.1.token: duplicates the token of entry 0']);
    expect(duplicate.message).not.toContain(TOKEN);

    const notJson = configErrorOf({ DSAR_API_KEYS: `[{token: "${TOKEN}"}]` });
    expect(notJson.problems).toEqual(['DSAR_API_KEYS: not valid JSON: expected an array of {token, tenantId, workspaceId?, roles}']);
    expect(notJson.message).not.toContain(TOKEN);

    const shortToken = 'tiny-secret-key';
    const short = configErrorOf({ DSAR_API_KEYS: JSON.stringify([{ token: shortToken, tenantId: 'acme', roles: ['admin'] }]) });
    expect(short.problems).toEqual(['DSAR_API_KEYS.0.token: must be at least 24 characters']);
    expect(short.message).not.toContain(shortToken);
  });

  it('rejects a short secret without echoing it, and a JWKS URL that is not http(s)', () => {
    const error = configErrorOf({ AUTH_JWT_SECRET: 'too-short-secret', AUTH_JWKS_URL: 'ftp://idp/jwks', AUTH_ISSUER: 'i', AUTH_AUDIENCE: 'a' });
    expect(error.problems).toEqual(['AUTH_JWT_SECRET: must be at least 32 characters', 'AUTH_JWKS_URL: an http(s) URL']);
    expect(error.message).not.toContain('too-short-secret');
  });

  it('requires AUTH_ISSUER and AUTH_AUDIENCE with AUTH_JWKS_URL, even next to other problems', () => {
    const error = configErrorOf({ AUTH_JWKS_URL: 'https://idp.example/jwks', AUTH_JWT_SECRET: 'short' });
    expect(error.problems.sort()).toEqual(['AUTH_AUDIENCE: required when AUTH_JWKS_URL is set', 'AUTH_ISSUER: required when AUTH_JWKS_URL is set', 'AUTH_JWT_SECRET: must be at least 32 characters']);
  });

  it('does not require an issuer or audience for HS256 alone', () => {
    expect(() => loadConfig('api-gateway', schema, { AUTH_JWT_SECRET: 's'.repeat(40) })).not.toThrow();
  });
});
