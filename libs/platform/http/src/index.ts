export * from './validation';
export * from './principal';
export * from './internal-client';
export * from './json-body';
export * from './internal-identity';
export * from './request-path';
