export * from './config-error';
export * from './load-config';
export * from './schemas';
export * from './service-ports';
export * from './data-dir-secret';
export * from './internal-auth';
export * from './request-reference-key';
export * from './secret-file';
