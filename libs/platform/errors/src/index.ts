export * from './domain-error';
export * from './problem-details';
export * from './problem-json.filter';
export * from './infrastructure-unavailable';
