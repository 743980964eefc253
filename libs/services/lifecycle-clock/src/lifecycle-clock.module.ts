import { Module } from '@nestjs/common';
import { RequestsController } from './api/requests.controller';
import { RequestQueue } from './application/request-queue';
import { RequestRegistry } from './application/request-registry';

@Module({ controllers: [RequestsController], providers: [RequestRegistry, RequestQueue], exports: [RequestRegistry] })
export class LifecycleClockModule {}
