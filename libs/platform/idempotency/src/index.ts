export * from './idempotency-key';
export * from './idempotency-store';
export * from './idempotency.interceptor';
export * from './idempotency.module';
export * from './idempotency.migration';
