export * from './async-mutex';
export * from './pglite-driver';
export * from './data-source';
export * from './unit-of-work';
export * from './persistence.module';
