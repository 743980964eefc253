export * from './periodic-job';
export * from './batches';
