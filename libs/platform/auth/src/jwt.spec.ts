import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, type KeyLike, SignJWT, UnsecuredJWT } from 'jose';
import { AuthenticationError } from './authentication-error';
import { Authenticator } from './authenticator';
import { looksLikeJwt } from './jwt';

const SECRET = 'an-hs256-secret-of-at-least-32-characters';
const secretKey = new TextEncoder().encode(SECRET);
const nowSeconds = () => Math.floor(Date.now() / 1000);

const baseClaims: JWTPayload = { sub: 'user-1', tenant_id: 'acme', roles: ['operator'] };

function hs256(claims: JWTPayload, { exp = nowSeconds() + 300, key = secretKey }: { exp?: number | null; key?: Uint8Array } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (exp !== null) jwt.setExpirationTime(exp);
  return jwt.sign(key);
}

async function messageOf(authenticator: Authenticator, token: string): Promise<string> {
  const error = await authenticator.authenticate(`Bearer ${token}`).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthenticationError);
  expect((error as Error).message).not.toContain(token);
  return (error as Error).message;
}

describe('looksLikeJwt', () => {
  it('recognises three base64url segments, the last one possibly empty', () => {
    expect(looksLikeJwt('aGVhZA.cGF5bG9hZA.c2ln')).toBe(true);
    expect(looksLikeJwt('aGVhZA.cGF5bG9hZA.')).toBe(true);
    expect(looksLikeJwt('dsar_dev_abcdefghijklmnopqrstuvwxyz')).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
    expect(looksLikeJwt('a.b.c.d')).toBe(false);
    expect(looksLikeJwt('a.b+.c')).toBe(false);
  });
});

describe('HS256 JWTs', () => {
  const authenticator = new Authenticator({ apiKeys: [], jwtSecret: SECRET });

  it('accepts a valid token: sub, tenant_id, workspace_id and roles', async () => {
    const token = await hs256({ ...baseClaims, workspace_id: 'eu', roles: ['operator', 'auditor'] });
    await expect(authenticator.authenticate(`Bearer ${token}`)).resolves.toEqual({
      id: 'jwt:user-1',
      tenantId: 'acme',
      workspaceId: 'eu',
      roles: ['operator', 'auditor'],
    });
  });

  it('accepts roles as a space-separated string and keeps only known roles', async () => {
    const token = await hs256({ ...baseClaims, roles: 'intake  auditor superuser admin,operator' });
    await expect(authenticator.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ roles: ['intake', 'auditor'] });
  });

  it('gives a token without roles no roles', async () => {
    const { roles: _roles, ...claims } = baseClaims;
    await expect(authenticator.authenticate(`Bearer ${await hs256(claims)}`)).resolves.toMatchObject({ roles: [] });
  });

  it('allows 30 seconds of clock skew on exp, not more', async () => {
    await expect(authenticator.authenticate(`Bearer ${await hs256(baseClaims, { exp: nowSeconds() - 10 })}`)).resolves.toMatchObject({
      id: 'jwt:user-1',
    });
    expect(await messageOf(authenticator, await hs256(baseClaims, { exp: nowSeconds() - 60 }))).toBe('The token has expired.');
  });

  it('rejects a token without exp', async () => {
    expect(await messageOf(authenticator, await hs256(baseClaims, { exp: null }))).toBe('The token has no exp claim.');
  });

  it('rejects a token signed with another secret', async () => {
    const token = await hs256(baseClaims, { key: new TextEncoder().encode('another-secret-of-at-least-32-characters') });
    expect(await messageOf(authenticator, token)).toBe('The token is not valid.');
  });

  it('rejects an unsigned token (alg none)', async () => {
    const token = new UnsecuredJWT(baseClaims).setExpirationTime('5m').encode();
    expect(await messageOf(authenticator, token)).toBe('The token is signed with an algorithm that is not allowed.');
  });

  it('rejects a token signed with an asymmetric key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT(baseClaims).setProtectedHeader({ alg: 'ES256' }).setExpirationTime('5m').sign(privateKey);
    expect(await messageOf(authenticator, token)).toBe('The token is signed with an algorithm that is not allowed.');
  });

  it.each([
    ['no tenant_id', { sub: 'user-1' }, 'The token has no tenant_id claim.'],
    ['no sub', { tenant_id: 'acme' }, 'The token has no sub claim.'],
    ['a numeric tenant_id', { sub: 'user-1', tenant_id: 42 }, "The token's tenant_id claim is not valid."],
    ['a tenant_id with a line break', { sub: 'user-1', tenant_id: 'acme\r\nx' }, "The token's tenant_id claim is not valid."],
    ['a non-string workspace_id', { ...baseClaims, workspace_id: ['eu'] }, "The token's workspace_id claim is not valid."],
    ['roles that are not strings', { ...baseClaims, roles: [1, 2] }, "The token's roles claim is not valid."],
  ])('rejects a token with %s', async (_case, claims, message) => {
    expect(await messageOf(authenticator, await hs256(claims as JWTPayload))).toBe(message);
  });

  it('rejects garbage shaped like a JWT', async () => {
    expect(await messageOf(authenticator, 'aGVhZA.cGF5bG9hZA.c2ln')).toBe('The token is not valid.');
  });

  it('checks iss and aud when they are configured', async () => {
    const strict = new Authenticator({ apiKeys: [], jwtSecret: SECRET, issuer: 'https://idp.example', audience: 'dsar' });
    const sign = (iss: string, aud: string) => new SignJWT(baseClaims).setProtectedHeader({ alg: 'HS256' }).setIssuer(iss).setAudience(aud).setExpirationTime('5m').sign(secretKey);
    await expect(strict.authenticate(`Bearer ${await sign('https://idp.example', 'dsar')}`)).resolves.toMatchObject({ id: 'jwt:user-1' });
    expect(await messageOf(strict, await sign('https://evil.example', 'dsar'))).toBe('The token was issued by an issuer this server does not trust.');
    expect(await messageOf(strict, await sign('https://idp.example', 'other'))).toBe('The token is meant for another audience.');
  });
});

describe('JWTs verified against a JWKS', () => {
  const ISSUER = 'https://idp.example';
  const AUDIENCE = 'dsar-api';
  let server: Server;
  let jwksUrl: string;
  let signingKey: KeyLike;
  let strangerKey: KeyLike;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair('ES256')).privateKey;
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(jwks);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const authenticator = () => new Authenticator({ apiKeys: [], jwksUrl, issuer: ISSUER, audience: AUDIENCE });
  const es256 = (key: KeyLike, { iss = ISSUER, aud = AUDIENCE, kid = 'k1' } = {}) =>
    new SignJWT(baseClaims).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(iss).setAudience(aud).setExpirationTime('5m').sign(key);

  it('accepts a token signed by a key of the set, with the right iss and aud', async () => {
    await expect(authenticator().authenticate(`Bearer ${await es256(signingKey)}`)).resolves.toEqual({
      id: 'jwt:user-1',
      tenantId: 'acme',
      roles: ['operator'],
    });
  });

  it('rejects a wrong audience or issuer', async () => {
    expect(await messageOf(authenticator(), await es256(signingKey, { aud: 'another-api' }))).toBe('The token is meant for another audience.');
    expect(await messageOf(authenticator(), await es256(signingKey, { iss: 'https://evil.example' }))).toBe('The token was issued by an issuer this server does not trust.');
  });

  it('rejects a token signed by a key outside the set, whatever kid it names', async () => {
    expect(await messageOf(authenticator(), await es256(strangerKey))).toBe('The token is not valid.');
    expect(await messageOf(authenticator(), await es256(strangerKey, { kid: 'k2' }))).toBe('The token is not valid.');
  });

  it('rejects an HS256 token, even one signed with the right secret, when only the JWKS is configured', async () => {
    const token = await new SignJWT(baseClaims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(secretKey);
    expect(await messageOf(authenticator(), token)).toBe('The token is signed with an algorithm that is not allowed.');
  });

  it('with a secret as well, checks each token with the key its alg calls for', async () => {
    const both = new Authenticator({ apiKeys: [], jwtSecret: SECRET, jwksUrl, issuer: ISSUER, audience: AUDIENCE });
    const hsToken = await new SignJWT(baseClaims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(secretKey);
    await expect(both.authenticate(`Bearer ${hsToken}`)).resolves.toMatchObject({ id: 'jwt:user-1' });
    await expect(both.authenticate(`Bearer ${await es256(signingKey)}`)).resolves.toMatchObject({ id: 'jwt:user-1' });
    expect(await messageOf(both, new UnsecuredJWT(baseClaims).setExpirationTime('5m').encode())).toBe('The token is signed with an algorithm that is not allowed.');
  });

  it('refuses a JWKS without an issuer and an audience', () => {
    expect(() => new Authenticator({ apiKeys: [], jwksUrl, issuer: ISSUER })).toThrow('A JWKS URL needs an issuer and an audience.');
  });
});
