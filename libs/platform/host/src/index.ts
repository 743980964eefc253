export * from './host-config';
export * from './service-definition';
export * from './service-host';
export * from './main-runner';
export * from './request-target';
