export { type BaseDeadline, computeBaseDeadline } from './base-deadline';
export { type HolidayCalendarRef, isPublicHoliday, isWorkingDay } from './working-days';
