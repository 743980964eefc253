export { Clock, ManualClock, SystemClock, systemClock } from './clock';
export { ClockModule } from './clock.module';
