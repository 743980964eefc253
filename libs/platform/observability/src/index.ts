export * from './metrics';
export * from './logging';
export * from './log-format';
export * from './health';
