import { Module } from '@nestjs/common';
import { RequestRegistry } from './application/request-registry';

@Module({ providers: [RequestRegistry], exports: [RequestRegistry] })
export class LifecycleClockModule {}
