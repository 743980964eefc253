import type { Request } from 'express';
import { IdentityHeaders, IdentitySignatureHeaders, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { INTERNAL_AUTH_WINDOW_MS, InternalAuthKey, internalIdentity, signedIdentityHeaders, verifyIdentity } from './internal-identity';
import { principalOf } from './principal';

const KEY = InternalAuthKey.from('k'.repeat(32));
const OTHER = InternalAuthKey.from('o'.repeat(32));
const NOW = Date.parse('2026-03-01T09:30:00Z');
const PATH = '/internal/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e?limit=5';
const alice: Principal = { id: 'key:0123456789abcdef', tenantId: 'acme', workspaceId: 'eu-web', roles: ['operator', 'auditor'] };

function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (e) {
    return e as ProblemError;
  }
  throw new Error('expected a problem');
}

describe('signed internal identity', () => {
  const signed = signedIdentityHeaders(KEY, 'GET', PATH, alice, NOW);

  it('verifies a signature made with the key, for the same call, within the window', () => {
    expect(verifyIdentity(KEY, 'GET', PATH, signed, NOW)).toEqual(alice);
    expect(verifyIdentity(KEY, 'get', PATH, signed, NOW + INTERNAL_AUTH_WINDOW_MS)).toEqual(alice);
    const tenantWide = { id: 'sub-1', tenantId: 'acme', roles: [] };
    expect(verifyIdentity(KEY, 'POST', '/x', signedIdentityHeaders(KEY, 'POST', '/x', tenantWide, NOW), NOW)).toEqual({ ...tenantWide, workspaceId: undefined });
  });

  it('refuses identity headers without a signature, or with a malformed one', () => {
    const unsigned = { ...signed };
    delete unsigned[IdentitySignatureHeaders.signature];
    delete unsigned[IdentitySignatureHeaders.timestamp];
    for (const headers of [unsigned, { ...signed, [IdentitySignatureHeaders.signature]: 'v1=abc' }, { ...signed, [IdentitySignatureHeaders.timestamp]: 'soon' }]) {
      const problem = problemOf(() => verifyIdentity(KEY, 'GET', PATH, headers, NOW));
      expect(problem.definition).toMatchObject({ name: 'INTERNAL_IDENTITY_INVALID', status: 401 });
    }
  });

  it('refuses a signature made with another key', () => {
    expect(problemOf(() => verifyIdentity(OTHER, 'GET', PATH, signed, NOW)).definition.status).toBe(401);
  });

  it('refuses a signature outside the validity window, either way', () => {
    expect(problemOf(() => verifyIdentity(KEY, 'GET', PATH, signed, NOW + INTERNAL_AUTH_WINDOW_MS + 1)).detail).toMatch(/expired/);
    expect(problemOf(() => verifyIdentity(KEY, 'GET', PATH, signed, NOW - INTERNAL_AUTH_WINDOW_MS - 1)).definition.status).toBe(401);
  });

  it('binds the signature to the method, the path and query, and every identity header', () => {
    expect(problemOf(() => verifyIdentity(KEY, 'POST', PATH, signed, NOW)).definition.status).toBe(401);
    expect(problemOf(() => verifyIdentity(KEY, 'GET', `${PATH}0`, signed, NOW)).definition.status).toBe(401);
    expect(problemOf(() => verifyIdentity(KEY, 'GET', '/internal/v1/requests', signed, NOW)).definition.status).toBe(401);
    const tampered = [
      { [IdentityHeaders.tenant]: 'globex' },
      { [IdentityHeaders.principal]: 'key:ffffffffffffffff' },
      { [IdentityHeaders.roles]: 'admin' },
      { [IdentityHeaders.workspace]: 'us-web' },
      { [IdentitySignatureHeaders.timestamp]: String(NOW + 1) },
    ];
    for (const change of tampered) expect(problemOf(() => verifyIdentity(KEY, 'GET', PATH, { ...signed, ...change }, NOW)).definition.status).toBe(401);
    const widened = { ...signed };
    delete widened[IdentityHeaders.workspace];
    expect(problemOf(() => verifyIdentity(KEY, 'GET', PATH, widened, NOW)).definition.status).toBe(401);
  });

  it('needs a key of at least 32 bytes, and never shows it', () => {
    expect(() => InternalAuthKey.from('x'.repeat(31))).toThrow(/32 bytes/);
    expect(JSON.stringify({ KEY })).not.toContain('kkkk');
    expect(String(KEY)).not.toContain('kkkk');
  });
});

describe('the internal identity middleware and principalOf', () => {
  const middleware = internalIdentity(KEY, () => NOW);
  const run = (req: Partial<Request>): { error?: unknown; req: Request } => {
    const r = { method: 'GET', originalUrl: PATH, url: PATH, headers: {}, ...req } as Request;
    let error: unknown;
    middleware(r, {} as never, (e?: unknown) => (error = e));
    return { error, req: r };
  };

  it('lets a request without identity through; principalOf then finds no caller (401)', () => {
    const { error, req } = run({ headers: {} });
    expect(error).toBeUndefined();
    expect(problemOf(() => principalOf(req)).definition.status).toBe(401);
  });

  it('gives principalOf the verified caller of a signed request', () => {
    const { error, req } = run({ headers: signedIdentityHeaders(KEY, 'GET', PATH, alice, NOW) });
    expect(error).toBeUndefined();
    expect(principalOf(req)).toEqual(alice);
  });

  it('refuses identity headers that are not signed wherever the principal is read', () => {
    const { error, req } = run({ headers: { [IdentityHeaders.tenant]: 'acme', [IdentityHeaders.principal]: 'p', [IdentityHeaders.roles]: 'admin' } });
    expect(error).toBeUndefined();
    expect(problemOf(() => principalOf(req)).definition).toMatchObject({ name: 'INTERNAL_IDENTITY_INVALID', status: 401 });
  });

  it('refuses a signature made with another key or for another path', () => {
    for (const headers of [signedIdentityHeaders(OTHER, 'GET', PATH, alice, NOW), signedIdentityHeaders(KEY, 'GET', '/internal/v1/requests', alice, NOW)]) {
      expect(problemOf(() => principalOf(run({ headers }).req)).definition.name).toBe('INTERNAL_IDENTITY_INVALID');
    }
  });

  it('trusts nothing when the middleware did not run', () => {
    const req = { method: 'GET', originalUrl: PATH, headers: signedIdentityHeaders(KEY, 'GET', PATH, alice, NOW) } as unknown as Request;
    expect(problemOf(() => principalOf(req)).definition.name).toBe('AUTHENTICATION_REQUIRED');
  });
});
