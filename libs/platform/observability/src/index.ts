export * from './metrics';
export * from './logging';
export * from './health';
