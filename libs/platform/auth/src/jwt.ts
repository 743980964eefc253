import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { isRole, type Principal } from '@dsar/contracts';
import { AuthenticationError } from './authentication-error';
import { isUsableId } from './identifier';

export interface JwtSettings {
  jwtSecret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
}

export const MIN_JWT_SECRET_LENGTH = 32;
const SECRET_ALGORITHMS = ['HS256'];
/** Asymmetric only: a JWKS never holds the secret an HS256 token would need, and `none` is never accepted. */
const JWKS_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'];
/** Covers clock drift between the issuer and this host. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Three base64url segments separated by dots. The signature segment may be
 * empty so that an unsigned (`alg: none`) token is still treated as a JWT and
 * rejected for its algorithm, rather than looked up as an API key.
 */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(token: string): boolean {
  return JWT_SHAPE.test(token);
}

export function jwtConfigured(settings: JwtSettings): boolean {
  return Boolean(settings.jwtSecret || settings.jwksUrl);
}

const invalidToken = () => new AuthenticationError('The token is not valid.');

/** Verifies JWTs signed with the shared HS256 secret and/or by a key of the issuer's JWKS. */
export class JwtVerifier {
  private readonly secretKey?: Uint8Array;
  /** createRemoteJWKSet caches the keys and refetches (rate-limited) when a token names an unknown kid. */
  private readonly remoteKeys?: JWTVerifyGetKey;
  private readonly claimChecks: Pick<JWTVerifyOptions, 'issuer' | 'audience' | 'clockTolerance' | 'requiredClaims'>;

  constructor(settings: JwtSettings) {
    if (!jwtConfigured(settings)) throw new Error('JwtVerifier needs jwtSecret or jwksUrl.');
    if (settings.jwtSecret) {
      if (settings.jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
        throw new Error(`The JWT secret must be at least ${MIN_JWT_SECRET_LENGTH} characters.`);
      }
      this.secretKey = new TextEncoder().encode(settings.jwtSecret);
    }
    if (settings.jwksUrl) {
      // Without both, any token signed by the issuer for any of its clients would be accepted.
      if (!settings.issuer || !settings.audience) throw new Error('A JWKS URL needs an issuer and an audience.');
      this.remoteKeys = createRemoteJWKSet(new URL(settings.jwksUrl));
    }
    this.claimChecks = {
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp'],
    };
  }

  /**
   * The principal a valid token names. Throws AuthenticationError for any
   * fault of the token; other errors (the JWKS endpoint unreachable or
   * answering garbage) are left as they are, since they are this server's
   * problem, not the caller's.
   */
  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      payload = (await this.verifyWithMatchingKey(token)).payload;
    } catch (e) {
      throw authenticationErrorFor(e);
    }
    return principalFromClaims(payload);
  }

  /** With both a secret and a JWKS configured, the token's own alg picks which one checks it. */
  private verifyWithMatchingKey(token: string) {
    const useSecret = this.secretKey && (!this.remoteKeys || algorithmOf(token) === 'HS256');
    if (useSecret) return jwtVerify(token, this.secretKey as Uint8Array, { ...this.claimChecks, algorithms: SECRET_ALGORITHMS });
    return jwtVerify(token, this.remoteKeys as JWTVerifyGetKey, { ...this.claimChecks, algorithms: JWKS_ALGORITHMS });
  }
}

function algorithmOf(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).alg;
  } catch {
    throw invalidToken();
  }
}

/** jose's messages are fine but not ours to promise; map the token's faults to fixed, safe ones. */
function authenticationErrorFor(error: unknown): unknown {
  if (error instanceof AuthenticationError) return error;
  if (error instanceof errors.JWTExpired) return new AuthenticationError('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) return new AuthenticationError(claimFailureMessage(error));
  if (error instanceof errors.JOSEAlgNotAllowed) return new AuthenticationError('The token is signed with an algorithm that is not allowed.');
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSENotSupported
  ) {
    return invalidToken();
  }
  return error;
}

function claimFailureMessage(error: errors.JWTClaimValidationFailed): string {
  if (error.reason === 'missing') return `The token has no ${error.claim} claim.`;
  switch (error.claim) {
    case 'iss':
      return 'The token was issued by an issuer this server does not trust.';
    case 'aud':
      return 'The token is meant for another audience.';
    case 'nbf':
      return 'The token is not valid yet.';
    default:
      return invalidToken().message;
  }
}

export const JWT_PRINCIPAL_PREFIX = 'jwt:';

/**
 * The principal id of a JWT caller: its `sub` in the `jwt:` namespace. An API key's id is `key:<16 hex>` and a
 * service acting on its own is `system:<name>`, so no `sub` an issuer signs can name another kind of caller, in
 * the audit chain or in a four-eyes comparison.
 */
export function jwtPrincipalId(sub: string): string {
  return `${JWT_PRINCIPAL_PREFIX}${sub}`;
}

function principalFromClaims(claims: JWTPayload): Principal {
  const id = jwtPrincipalId(requiredIdClaim(claims, 'sub'));
  const tenantId = requiredIdClaim(claims, 'tenant_id');
  const workspaceId = claims['workspace_id'] === undefined ? undefined : requiredIdClaim(claims, 'workspace_id');
  return { id, tenantId, ...(workspaceId ? { workspaceId } : {}), roles: rolesFromClaim(claims['roles']) };
}

function requiredIdClaim(claims: JWTPayload, name: string): string {
  const value = claims[name];
  if (value === undefined || value === '') throw new AuthenticationError(`The token has no ${name} claim.`);
  if (typeof value !== 'string' || !isUsableId(value)) throw new AuthenticationError(`The token's ${name} claim is not valid.`);
  return value;
}

/**
 * Roles as an array or as a space-separated string (the OAuth `scope` style).
 * Only known roles are kept: others grant nothing, and a name with a comma
 * would split into extra roles once the gateway joins them into a header.
 */
function rolesFromClaim(claim: unknown): string[] {
  if (claim === undefined) return [];
  const names = typeof claim === 'string' ? claim.split(' ') : claim;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
    throw new AuthenticationError("The token's roles claim is not valid.");
  }
  return [...new Set(names.filter(isRole))];
}
