import { type DynamicModule, Module } from '@nestjs/common';
import { Clock, systemClock } from './clock';

/** Provides the `Clock` to every module of a service: the system clock unless a test hands in its own. */
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = systemClock): DynamicModule {
    return { module: ClockModule, global: true, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
