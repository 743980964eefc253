export { type BaseDeadline, computeBaseDeadline, endOfLocalDay } from './base-deadline';
export { type HolidayCalendarRef, isPublicHoliday, isWorkingDay } from './working-days';
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
} from './clock';
