export * from './validation';
export * from './principal';
export * from './internal-client';
export * from './json-body';
