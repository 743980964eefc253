export * from './identity';
export * from './requests';
export * from './policies';
export * from './clock';
export * from './lifecycle';
export * from './appeals';
export * from './audit';
export * from './verification';
