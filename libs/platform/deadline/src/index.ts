export { type BaseDeadline, computeBaseDeadline, endOfLocalDay, localDateOf } from './base-deadline';
export { holidayCalendarExists, type HolidayCalendarRef, isPublicHoliday, isWorkingDay } from './working-days';
export {
  appealClockRule,
  appealDecisionDueAt,
  appealDueAt,
  type ClockEvent,
  type ClockInput,
  type ClockResult,
  ClockRuleError,
  type ClockRuleViolation,
  type ClockSegment,
  computeClock,
  defaultExtension,
  describePeriod,
  type ExtensionOutcome,
  isoDuration,
  type PauseOutcome,
} from './deadline-engine';
