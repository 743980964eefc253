import { Module } from '@nestjs/common';
import { ClockController } from './api/clock.controller';
import { RequestsController } from './api/requests.controller';
import { RequestClock } from './application/request-clock';
import { RequestQueue } from './application/request-queue';
import { RequestRegistry } from './application/request-registry';

@Module({ controllers: [RequestsController, ClockController], providers: [RequestRegistry, RequestQueue, RequestClock], exports: [RequestRegistry, RequestClock] })
export class LifecycleClockModule {}
