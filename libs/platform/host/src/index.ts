export * from './host-config';
export * from './service-definition';
export * from './service-host';
export * from './json-body';
export * from './main-runner';
