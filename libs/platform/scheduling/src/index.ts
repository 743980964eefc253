export * from './periodic-job';
