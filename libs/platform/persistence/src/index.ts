export * from './async-mutex';
export * from './pglite-driver';
export * from './data-source';
export * from './lease-renewal';
export * from './sql-write';
export * from './unit-of-work';
export * from './persistence.module';
