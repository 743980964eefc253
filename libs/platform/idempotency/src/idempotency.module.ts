import { type DynamicModule, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENCY_SCHEMA, IdempotencyStore } from './idempotency-store';

@Module({})
export class IdempotencyModule {
  static forRoot(options: { schema: string }): DynamicModule {
    return {
      module: IdempotencyModule,
      global: true,
      providers: [{ provide: IDEMPOTENCY_SCHEMA, useValue: options.schema }, IdempotencyStore, IdempotencyInterceptor],
      exports: [IdempotencyStore, IdempotencyInterceptor],
    };
  }
}
