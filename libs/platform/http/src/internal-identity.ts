import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { IdentityHeaders, IdentitySignatureHeaders, type Principal } from '@dsar/contracts';
import { INTERNAL_AUTH_KEY_MIN_LENGTH } from '@dsar/platform/config';
import { ProblemError } from '@dsar/platform/errors';

/**
 * Signed internal identity (docs/adr/0020-signed-internal-identity.md).
 *
 * The gateway (and any service that calls another on a caller's behalf) signs
 * each internal call: an HMAC-SHA256 with the key every process shares, over
 * the method, the path and query, a timestamp and the identity headers. A
 * service takes the identity headers only with a valid signature made within
 * the validity window; otherwise the call is refused with 401.
 */

/** Injection token of the process's InternalAuthKey. */
export const INTERNAL_AUTH = Symbol('INTERNAL_AUTH');

/** How far a signature's timestamp may lie from the receiver's clock, either way. */
export const INTERNAL_AUTH_WINDOW_MS = 60_000;

const VERSION = 'v1';

/**
 * The time signatures are made and checked with: infrastructure time (the
 * processes' wall clocks, kept in step by NTP), not the domain's Clock, which
 * tests move freely.
 */
export function signatureTime(): number {
  return Date.now();
}

/** The shared signing key. It never appears in logs or serialized state. */
export class InternalAuthKey {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** The key from its configured text (at least 32 bytes, surrounding white space ignored). */
  static from(secret: string): InternalAuthKey {
    const key = Buffer.from(secret.trim(), 'utf8');
    if (key.length < INTERNAL_AUTH_KEY_MIN_LENGTH) {
      throw new Error(`the internal auth key must be at least ${INTERNAL_AUTH_KEY_MIN_LENGTH} bytes`);
    }
    return new InternalAuthKey(key);
  }

  /** The base64url HMAC-SHA256 of a canonical string. */
  mac(text: string): Buffer {
    return createHmac('sha256', this.#key).update(text, 'utf8').digest();
  }

  toJSON(): string {
    return '[internal auth key]';
  }

  toString(): string {
    return '[internal auth key]';
  }
}

/** The signed fields of one call; values as they travel in the headers. */
interface SignedFields {
  method: string;
  pathAndQuery: string;
  timestamp: string;
  tenant: string;
  principal: string;
  workspace: string;
  roles: string;
}

/** One field per line: header values cannot hold a line break, so no two calls share a canonical string. */
function canonical(f: SignedFields): string {
  return ['dsar-identity', VERSION, f.method.toUpperCase(), f.pathAndQuery, f.timestamp, f.tenant, f.principal, f.workspace, f.roles].join('\n');
}

/**
 * The identity headers of a call made for `principal`, with their signature.
 * `pathAndQuery` is the request target exactly as it goes on the wire
 * (`/internal/v1/requests/…?…`).
 */
export function signedIdentityHeaders(key: InternalAuthKey, method: string, pathAndQuery: string, principal: Principal, now: number = signatureTime()): Record<string, string> {
  const fields: SignedFields = {
    method,
    pathAndQuery,
    timestamp: String(Math.floor(now)),
    tenant: principal.tenantId,
    principal: principal.id,
    workspace: principal.workspaceId ?? '',
    roles: principal.roles.join(','),
  };
  return {
    [IdentityHeaders.tenant]: fields.tenant,
    [IdentityHeaders.principal]: fields.principal,
    [IdentityHeaders.roles]: fields.roles,
    ...(principal.workspaceId ? { [IdentityHeaders.workspace]: principal.workspaceId } : {}),
    [IdentitySignatureHeaders.timestamp]: fields.timestamp,
    [IdentitySignatureHeaders.signature]: `${VERSION}=${key.mac(canonical(fields)).toString('base64url')}`,
  };
}

/** The request target as it goes on the wire for a URL: what the receiver sees as its `originalUrl`. */
export function requestTargetOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function single(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
}

/** Every identity and signature header, by lower-case name. */
const IDENTITY_HEADER_NAMES: readonly string[] = [...Object.values(IdentityHeaders), ...Object.values(IdentitySignatureHeaders)];

/** Whether a request carries any identity or signature header at all. */
export function carriesIdentity(headers: HeaderBag): boolean {
  return IDENTITY_HEADER_NAMES.some((name) => headers[name] !== undefined);
}

function refused(why: string): ProblemError {
  return new ProblemError('INTERNAL_IDENTITY_INVALID', `The caller identity is not signed by the api-gateway: ${why}.`);
}

/**
 * The principal of a signed internal call, or a 401 INTERNAL_IDENTITY_INVALID.
 * The signature is compared in constant time; the timestamp must lie within
 * INTERNAL_AUTH_WINDOW_MS of `now`.
 */
export function verifyIdentity(key: InternalAuthKey, method: string, pathAndQuery: string, headers: HeaderBag, now: number = signatureTime()): Principal {
  const tenant = single(headers, IdentityHeaders.tenant);
  const principal = single(headers, IdentityHeaders.principal);
  const roles = single(headers, IdentityHeaders.roles) ?? '';
  const workspace = single(headers, IdentityHeaders.workspace) ?? '';
  const timestamp = single(headers, IdentitySignatureHeaders.timestamp);
  const signature = single(headers, IdentitySignatureHeaders.signature);
  if (!tenant?.trim() || !principal?.trim()) throw refused('the tenant or principal header is missing');
  if (!signature || !timestamp) throw refused('the signature is missing');
  if (!/^\d{1,16}$/.test(timestamp)) throw refused('the timestamp is malformed');
  if (Math.abs(now - Number(timestamp)) > INTERNAL_AUTH_WINDOW_MS) throw refused('the signature has expired or is not yet valid');
  const match = /^v1=([A-Za-z0-9_-]{43})$/.exec(signature);
  if (!match) throw refused('the signature is malformed');
  const expected = key.mac(canonical({ method, pathAndQuery, timestamp, tenant, principal, workspace, roles }));
  const given = Buffer.from(match[1], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused('the signature does not match');
  return {
    id: principal.trim(),
    tenantId: tenant.trim(),
    workspaceId: workspace.trim() || undefined,
    roles: roles
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
  };
}

const IDENTITY = Symbol.for('dsar.internalIdentity');

/** What the middleware found on a request: a verified caller, or why its identity headers were refused. */
type IdentityOutcome = { principal: Principal } | { refused: ProblemError };

/**
 * The caller the internal identity middleware verified for this request.
 * Throws the 401 it recorded when the request carried identity headers
 * without a valid signature; undefined when it carried none (or the
 * middleware did not run: nothing is trusted then).
 */
export function verifiedPrincipalOf(req: Request): Principal | undefined {
  const outcome = (req as Request & { [IDENTITY]?: IdentityOutcome })[IDENTITY];
  if (outcome && 'refused' in outcome) throw outcome.refused;
  return outcome?.principal;
}

/**
 * Express middleware of every internal service: it checks the signature of a
 * request that carries any identity or signature header, once, before any
 * handler runs, and records the outcome for `principalOf`, which refuses the
 * call (401 INTERNAL_IDENTITY_INVALID) wherever the principal is read.
 * Requests without identity (health, metrics) pass untouched.
 */
export function internalIdentity(key: InternalAuthKey, now: () => number = signatureTime) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (carriesIdentity(req.headers)) {
      let outcome: IdentityOutcome;
      try {
        outcome = { principal: verifyIdentity(key, req.method, req.originalUrl ?? req.url, req.headers, now()) };
      } catch (e) {
        if (!(e instanceof ProblemError)) throw e;
        outcome = { refused: e };
      }
      Object.defineProperty(req, IDENTITY, { value: outcome, enumerable: false });
    }
    next();
  };
}
