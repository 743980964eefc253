export * from './api-keys';
export * from './authentication-error';
export * from './authenticator';
export * from './config';
export * from './dev-token';
export { JWT_PRINCIPAL_PREFIX, jwtPrincipalId, looksLikeJwt, MIN_JWT_SECRET_LENGTH } from './jwt';
