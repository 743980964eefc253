export * from './identity';
export * from './requests';
