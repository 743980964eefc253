import { SignJWT } from 'jose';
import { apiKeyId } from './api-keys';
import { AuthenticationError } from './authentication-error';
import { Authenticator } from './authenticator';

const TOKEN = 'alpha-key-0123456789abcdef';
const SECRET = 'an-hs256-secret-of-at-least-32-characters';

const withKeys = new Authenticator({ apiKeys: [{ token: TOKEN, tenantId: 'acme', workspaceId: 'eu', roles: ['operator'] }] });

async function failureOf(authenticator: Authenticator, header: string | undefined): Promise<AuthenticationError> {
  const error = await authenticator.authenticate(header).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthenticationError);
  return error as AuthenticationError;
}

describe('Authenticator with API keys', () => {
  it('accepts a known key: tenant, workspace, roles and the key: id', async () => {
    await expect(withKeys.authenticate(`Bearer ${TOKEN}`)).resolves.toEqual({
      id: apiKeyId(TOKEN),
      tenantId: 'acme',
      workspaceId: 'eu',
      roles: ['operator'],
    });
  });

  it('takes the scheme in any case and tolerates surrounding spaces', async () => {
    await expect(withKeys.authenticate(`bearer ${TOKEN}`)).resolves.toMatchObject({ tenantId: 'acme' });
    await expect(withKeys.authenticate(`  BEARER   ${TOKEN} `)).resolves.toMatchObject({ tenantId: 'acme' });
  });

  it('rejects an unknown key without repeating it', async () => {
    const unknown = 'bravo-key-0123456789abcdef';
    const error = await failureOf(withKeys, `Bearer ${unknown}`);
    expect(error.message).toBe('The token is not valid.');
    expect(error.message).not.toContain(unknown);
  });

  it.each([
    ['no header', undefined, 'The bearer token is missing.'],
    ['an empty header', '', 'The bearer token is missing.'],
    ['a scheme without a token', 'Bearer', 'The bearer token is missing.'],
    ['a scheme and blanks', 'Bearer    ', 'The bearer token is missing.'],
    ['another scheme', 'Basic xyz', 'The Authorization header must use the Bearer scheme.'],
    ['a bare token', TOKEN, 'The Authorization header must use the Bearer scheme.'],
    ['a token with spaces', `Bearer ${TOKEN} extra`, 'The token is not valid.'],
  ])('rejects %s', async (_case, header, message) => {
    const error = await failureOf(withKeys, header);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain(TOKEN);
  });
});

describe('Authenticator.configured', () => {
  it('is false with nothing configured, true with keys or a JWT secret', () => {
    expect(new Authenticator({ apiKeys: [] }).configured).toBe(false);
    expect(withKeys.configured).toBe(true);
    expect(new Authenticator({ apiKeys: [], jwtSecret: SECRET }).configured).toBe(true);
  });

  it('rejects every token when nothing is configured', async () => {
    expect((await failureOf(new Authenticator({ apiKeys: [] }), `Bearer ${TOKEN}`)).message).toBe('The token is not valid.');
  });
});

describe('Authenticator choosing between key and JWT', () => {
  const both = new Authenticator({ apiKeys: [{ token: TOKEN, tenantId: 'acme', roles: ['admin'] }], jwtSecret: SECRET });

  it('verifies a JWT-shaped token as a JWT and any other as an API key', async () => {
    const jwt = await new SignJWT({ tenant_id: 'globex', roles: ['auditor'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('user-7').setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
    await expect(both.authenticate(`Bearer ${jwt}`)).resolves.toEqual({ id: 'jwt:user-7', tenantId: 'globex', roles: ['auditor'] });
    await expect(both.authenticate(`Bearer ${TOKEN}`)).resolves.toMatchObject({ id: apiKeyId(TOKEN), tenantId: 'acme' });
  });

  it('never gives a JWT the id of an API key or of a service, whatever its sub says', async () => {
    const jwtWithSub = (sub: string) =>
      new SignJWT({ tenant_id: 'acme', roles: ['admin'] }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
    const keyId = apiKeyId(TOKEN);
    const posingAsKey = await both.authenticate(`Bearer ${await jwtWithSub(keyId)}`);
    expect(posingAsKey.id).toBe(`jwt:${keyId}`);
    expect(posingAsKey.id).not.toBe((await both.authenticate(`Bearer ${TOKEN}`)).id);
    expect((await both.authenticate(`Bearer ${await jwtWithSub('system:retention')}`)).id).toBe('jwt:system:retention');
  });
});
