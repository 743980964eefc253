import type { Principal } from '@dsar/contracts';
import { ApiKeyStore, type ApiKeyEntry } from './api-keys';
import { AuthenticationError } from './authentication-error';
import { JwtVerifier, jwtConfigured, looksLikeJwt } from './jwt';

export interface AuthSettings {
  apiKeys: ApiKeyEntry[];
  jwtSecret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
}

/** Turns an Authorization header into the principal it proves, by static API key or JWT. */
export class Authenticator {
  private readonly apiKeys: ApiKeyStore;
  private readonly jwtVerifier?: JwtVerifier;

  constructor(settings: AuthSettings) {
    this.apiKeys = new ApiKeyStore(settings.apiKeys);
    if (jwtConfigured(settings)) this.jwtVerifier = new JwtVerifier(settings);
  }

  /** Whether any way of authenticating is configured. */
  get configured(): boolean {
    return this.apiKeys.size > 0 || this.jwtVerifier !== undefined;
  }

  /**
   * Throws AuthenticationError when the caller is not authenticated. Any other
   * error means verification could not run (e.g. the JWKS endpoint is down).
   */
  async authenticate(authorizationHeader: string | undefined): Promise<Principal> {
    const token = bearerTokenOf(authorizationHeader);
    if (this.jwtVerifier && looksLikeJwt(token)) return this.jwtVerifier.verify(token);
    const principal = this.apiKeys.find(token);
    if (!principal) throw new AuthenticationError('The token is not valid.');
    return principal;
  }
}

/** The token of a `Bearer <token>` header; the scheme is case-insensitive (RFC 9110 §11.1). */
function bearerTokenOf(header: string | undefined): string {
  const trimmed = header?.trim() ?? '';
  if (trimmed === '') throw new AuthenticationError('The bearer token is missing.');
  const [scheme, ...rest] = trimmed.split(/\s+/);
  if (scheme.toLowerCase() !== 'bearer') throw new AuthenticationError('The Authorization header must use the Bearer scheme.');
  if (rest.length === 0) throw new AuthenticationError('The bearer token is missing.');
  // A token never contains whitespace; more than one word is a malformed header.
  if (rest.length > 1) throw new AuthenticationError('The token is not valid.');
  return rest[0];
}
