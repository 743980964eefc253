import { Duration } from 'luxon';
import {
  type ClockMode,
  type ExtensionRule,
  type JurisdictionBinding,
  type PauseReason,
  type PauseRule,
  type PeriodRule,
  type PolicyPack,
  type RequestRule,
  type RequestType,
  ruleFor,
} from '@dsar/contracts';
import { addWorkingDays, endOfLocalDay, endOfPeriod, localDateOf, rollOffRestDays } from './base-deadline';
import { type HolidayCalendarRef, isWorkingDay, parseLocalDate } from './working-days';

/** Something that happened to a request's clock, in the order it happened. */
export type ClockEvent =
  | { readonly kind: 'pause'; readonly reason: PauseReason; readonly at: Date; readonly actor: string }
  | { readonly kind: 'resume'; readonly at: Date; readonly actor: string }
  | {
      readonly kind: 'extension';
      readonly at: Date;
      readonly actor: string;
      readonly additionalDays?: number;
      readonly additionalMonths?: number;
      readonly justification: string;
      readonly reason?: string | null;
    }
  /** An approved appeal reopened the request: the pack's appeal period runs from here, with its own extension rule. */
  | { readonly kind: 'reopen'; readonly at: Date; readonly actor: string };

export interface ClockInput {
  readonly pack: PolicyPack;
  readonly binding: JurisdictionBinding;
  /** null: the request is in triage (no type yet), and its clock runs on the pack's default rule (`rules.default`). */
  readonly requestType: RequestType | null;
  readonly clockMode: ClockMode;
  /** When the request reached the controller (the provenance time). */
  readonly receivedAt: Date;
  readonly events: readonly ClockEvent[];
}

export type PauseEffect = 'suspended' | 'restarted' | 'ignored' | 'after_deadline' | 'pending';

export interface PauseOutcome {
  readonly reason: PauseReason;
  readonly rule: PauseRule;
  readonly from: Date;
  /** null while the pause is open. */
  readonly to: Date | null;
  /** Local days that do not count (suspension only). */
  readonly excludedDays: number;
  readonly effect: PauseEffect;
  readonly actor: string;
}

export interface ExtensionOutcome {
  readonly at: Date;
  readonly actor: string;
  readonly additionalDays?: number;
  readonly additionalMonths?: number;
  readonly justification: string;
  readonly reason: string | null;
  /** The last moment the requester could be told of it. */
  readonly noticeDueAt: Date;
  readonly previousDueAt: Date;
  readonly dueAt: Date;
}

export type SegmentReason = 'base' | 'resumed' | 'restart' | 'reopen' | PauseReason | 'extension' | 'roll';

export interface ClockSegment {
  readonly reason: SegmentReason;
  readonly from: Date;
  /** null for a pause that has not ended. */
  readonly to: Date | null;
  readonly countsTowardDeadline: boolean;
  readonly actor: string;
  readonly policyVersion: string;
  /** The pack's rule for a pause segment. */
  readonly rule?: PauseRule;
}

export interface ClockResult {
  /** The deadline of the base period from receipt, before any pause or extension. */
  readonly baseDeadline: Date;
  /** The deadline with every pause and extension applied; `dueAt` everywhere. */
  readonly finalDueAt: Date;
  /** Its local last day. */
  readonly lastDay: string;
  readonly state: 'running' | 'paused';
  readonly pausedSince: Date | null;
  /** When the period currently runs from (the receipt, or the end of the latest restarting pause). */
  readonly startedAt: Date;
  /** The rule the clock runs on now: the request type's, or after a reopening the appeal clock's. */
  readonly rule: RequestRule;
  /** Extension granted since the clock (re)started, against the rule's maximum. */
  readonly extensionUsed: { readonly days: number; readonly months: number; readonly count: number };
  readonly pauses: readonly PauseOutcome[];
  readonly extensions: readonly ExtensionOutcome[];
  readonly segments: readonly ClockSegment[];
  /** Until when an extension may still be notified; null when the pack allows none or none is left. */
  readonly extensionNoticeDueAt: Date | null;
  readonly acknowledgementDueAt: Date | null;
  /** When a refusal must be explained: the pack's refusal-notice period, or the response deadline where it has none. */
  readonly refusalNoticeDueAt: Date;
  /** The computation in words, one step per line. */
  readonly steps: readonly string[];
}

export type ClockRuleViolation =
  | 'CLOCK_EVENT_OUT_OF_ORDER'
  | 'CLOCK_ALREADY_PAUSED'
  | 'CLOCK_NOT_PAUSED'
  | 'EXTENSION_NOT_AVAILABLE'
  | 'EXTENSION_UNIT_MISMATCH'
  | 'EXTENSION_AMOUNT_REQUIRED'
  | 'EXTENSION_REASON_REQUIRED'
  | 'EXTENSION_EXCEEDS_MAXIMUM'
  | 'EXTENSION_NOTICE_PERIOD_ELAPSED';

/** A clock event the pack's rules do not allow; the application turns it into a problem response. */
export class ClockRuleError extends Error {
  constructor(
    readonly violation: ClockRuleViolation,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ClockRuleError';
  }
}

/** Mutable state of the replay: what the period currently runs from and what stretches it. */
interface Running {
  startDay: string;
  startedAt: Date;
  /** Paused local day spans that do not count (suspensions since the last restart). */
  suspended: Array<readonly [string, string]>;
  extensionDays: number;
  extensionMonths: number;
  extensionCount: number;
}

const DAY_FORMAT = 'ccc d LLL yyyy';

/**
 * The legal clock of one request: replays its pauses and extensions on the
 * rules of its pinned pack. Pure and deterministic: the same input gives the
 * same deadline, whenever and wherever it runs.
 *
 * - Days are local dates in the binding's time zone; a deadline is the end of its last local day.
 * - A pause follows the pack's rule for its reason: `restart` runs the whole period again from
 *   the local day the pause ends, `suspend` adds the paused local days (both end days count as
 *   paused), `ignore` changes nothing. In clock mode `active` a verification pause restarts.
 * - A pause that starts after the deadline's last day cannot revive it.
 * - While a pause is open, `finalDueAt` is the deadline without it: the earliest the deadline can
 *   be, so nothing treats a paused request as having more time than it will.
 * - Extensions are checked when they happen: the pack must allow one, it must be notified inside the
 *   notice window (stretched by suspensions), and all extensions together stay within the maximum.
 */
export function computeClock(input: ClockInput): ClockResult {
  return new ClockReplay(input).run();
}

/** What an extension would add if the caller names no amount: what is left of the pack's maximum. */
export function defaultExtension(input: ClockInput): { additionalDays?: number; additionalMonths?: number } {
  const clock = computeClock(input);
  const rule = clock.rule;
  const ext = requireExtensionRule(rule, input.pack);
  const max = ext.maxTotal;
  if (!max) {
    const field = rule.period.unit === 'months' ? 'additionalMonths' : 'additionalDays';
    throw new ClockRuleError('EXTENSION_AMOUNT_REQUIRED', `${input.pack.packId} sets no maximum extension, so there is no default: give ${field}.`, { field });
  }
  const used = max.unit === 'months' ? clock.extensionUsed.months : clock.extensionUsed.days;
  const left = max.amount - used;
  if (left <= 0) {
    const count = clock.extensionUsed.count;
    throw new ClockRuleError('EXTENSION_EXCEEDS_MAXIMUM', `The pack's maximum extension of ${describeAmount(max.amount, max.unit)} is used up.`, {
      maximum: max,
      maxCount: ext.maxCount,
      alreadyGranted: { amount: used, count },
    });
  }
  return max.unit === 'months' ? { additionalMonths: left } : { additionalDays: left };
}

/** The rules of the request type, with clock mode `active` making a verification pause restart the period. */
function effectiveRule(input: Pick<ClockInput, 'pack' | 'requestType' | 'clockMode'>): RequestRule {
  const rule = ruleFor(input.pack, input.requestType);
  return input.clockMode === 'active' ? { ...rule, pauses: { ...rule.pauses, verification: 'restart' } } : rule;
}

/**
 * The clock of a request reopened on appeal, and of the appeal itself: the pack's appeal period and
 * extension. A pack without an appeal rule (no statutory appeal to the controller) gives the request
 * type's own period and extension, as a service target. Pauses follow the request type's rules;
 * there is no second acknowledgement.
 */
export function appealClockRule(pack: PolicyPack, requestRule: RequestRule): RequestRule {
  const appeal = pack.appeal;
  return {
    ...requestRule,
    basis: appeal ? requestRule.basis : 'service_target',
    period: appeal?.response ?? requestRule.period,
    extension: appeal ? appeal.extension : requestRule.extension,
    acknowledgement: null,
    refusalNotice: null,
  };
}

/** When an appeal received at `at` must be decided, on the appeal clock (`appealClockRule`). */
export function appealDecisionDueAt(input: Pick<ClockInput, 'pack' | 'binding' | 'requestType' | 'clockMode'>, at: Date): Date {
  const { period } = appealClockRule(input.pack, effectiveRule(input));
  const { timeZone, holidays } = input.binding;
  const end = endOfPeriod(period, localDateOf(at, timeZone), holidays);
  return endOfLocalDay(rollOffRestDays(end, period.roll, holidays), timeZone);
}

function requireExtensionRule(rule: RequestRule, pack: PolicyPack): ExtensionRule {
  if (!rule.extension) throw new ClockRuleError('EXTENSION_NOT_AVAILABLE', `${pack.name} (${pack.packId} ${pack.version}) allows no extension for this request type.`);
  return rule.extension;
}

class ClockReplay {
  private rule: RequestRule;
  private readonly holidays: HolidayCalendarRef;
  private readonly zone: string;
  private readonly version: string;
  private readonly running: Running;
  private readonly pauses: PauseOutcome[] = [];
  private readonly extensions: ExtensionOutcome[] = [];
  private readonly segments: ClockSegment[] = [];
  private readonly steps: string[] = [];
  private openPause: { reason: PauseReason; rule: PauseRule; at: Date; actor: string; day: string; afterDeadline: boolean } | undefined;
  /** Where the current running segment began, why, and who started it. */
  private segmentStart: { at: Date; reason: SegmentReason; actor: string };

  constructor(private readonly input: ClockInput) {
    this.rule = effectiveRule(input);
    this.holidays = input.binding.holidays;
    this.zone = input.binding.timeZone;
    this.version = input.pack.version;
    const receiptDay = localDateOf(input.receivedAt, this.zone);
    this.running = { startDay: receiptDay, startedAt: input.receivedAt, suspended: [], extensionDays: 0, extensionMonths: 0, extensionCount: 0 };
    this.segmentStart = { at: input.receivedAt, reason: 'base', actor: 'system' };
  }

  run(): ClockResult {
    const { pack, binding, receivedAt, clockMode } = this.input;
    const base = this.deadline({ ...this.running, suspended: [], extensionDays: 0, extensionMonths: 0 });
    this.steps.push(
      `Received ${receivedAt.toISOString()}, local day ${this.show(this.running.startDay)} in ${this.zone} (${binding.name}); ${pack.name} ${pack.version}, clock mode ${clockMode}.`,
      `Base period: ${describePeriod(this.rule.period)} → it ends ${this.show(base.periodEnd)}${this.rollText(base)}; due ${base.dueAt.toISOString()}.`,
    );
    if (this.input.requestType === null) {
      // Said in words, since the deadline may move once the type is known (a CCPA opt-out has 15 business days, not 45 days).
      this.steps.splice(1, 0, `Request type not known yet (triage): the pack's default rule applies until an operator names the type, and the deadline is then computed again from the same receipt.`);
    }
    if (this.running.startDay < pack.effectiveFrom) {
      this.steps.push(
        `Received before ${pack.packId} took effect (${pack.effectiveFrom}): the pack's rules are applied, but the rules in force on the day of receipt may differ (see the pack's notes).`,
      );
    }
    let previousAt = receivedAt;
    for (const event of this.input.events) {
      if (event.at.getTime() < previousAt.getTime()) {
        throw new ClockRuleError('CLOCK_EVENT_OUT_OF_ORDER', `Clock event at ${event.at.toISOString()} is earlier than ${previousAt.toISOString()} (the receipt or the previous clock event).`);
      }
      previousAt = event.at;
      if (event.kind === 'pause') this.pause(event);
      else if (event.kind === 'resume') this.resume(event);
      else if (event.kind === 'reopen') this.reopen(event);
      else this.extend(event);
    }
    return this.result(base.dueAt);
  }

  private pause(event: Extract<ClockEvent, { kind: 'pause' }>): void {
    if (this.openPause) {
      throw new ClockRuleError('CLOCK_ALREADY_PAUSED', `The clock is already paused for ${this.openPause.reason} since ${this.openPause.at.toISOString()}; resume it first.`, {
        pausedSince: this.openPause.at.toISOString(),
        pauseReason: this.openPause.reason,
      });
    }
    const day = localDateOf(event.at, this.zone);
    const current = this.deadline(this.running);
    const afterDeadline = day > current.lastDay;
    const rule = this.rule.pauses[event.reason];
    this.closeRunningSegment(event.at);
    this.openPause = { reason: event.reason, rule, at: event.at, actor: event.actor, day, afterDeadline };
    this.steps.push(
      afterDeadline
        ? `${capitalize(event.reason)} pause from ${this.show(day)}: it starts after the deadline's last day (${this.show(current.lastDay)}), so it cannot extend it.`
        : `${capitalize(event.reason)} pause from ${this.show(day)}: the pack says ${rule} (${PAUSE_RULE_TEXT[rule]}).`,
    );
  }

  private resume(event: Extract<ClockEvent, { kind: 'resume' }>): void {
    const open = this.openPause;
    if (!open) throw new ClockRuleError('CLOCK_NOT_PAUSED', 'The clock is not paused.');
    this.openPause = undefined;
    const day = localDateOf(event.at, this.zone);
    const before = this.deadline(this.running);
    let effect: PauseEffect;
    let excludedDays = 0;
    let nextReason: SegmentReason = 'resumed';
    if (open.afterDeadline) {
      effect = 'after_deadline';
    } else if (open.rule === 'ignore') {
      effect = 'ignored';
    } else if (open.rule === 'suspend') {
      effect = 'suspended';
      this.running.suspended.push([open.day, day]);
      excludedDays = this.countExcludedFor(this.rule.period.unit, open.day, day);
    } else {
      effect = 'restarted';
      nextReason = 'restart';
      this.running.startDay = day;
      this.running.startedAt = event.at;
      this.running.suspended = [];
      // The time before a restart no longer counts: the period runs again in full.
      for (let i = 0; i < this.segments.length; i++) this.segments[i] = { ...this.segments[i], countsTowardDeadline: false };
    }
    const countsTowardDeadline = effect === 'ignored' || effect === 'after_deadline';
    this.segments.push({ reason: open.reason, from: open.at, to: event.at, countsTowardDeadline, actor: open.actor, policyVersion: this.version, rule: open.rule });
    this.pauses.push({ reason: open.reason, rule: open.rule, from: open.at, to: event.at, excludedDays, effect, actor: open.actor });
    this.segmentStart = { at: event.at, reason: nextReason, actor: event.actor };
    const after = this.deadline(this.running);
    const span = `${this.show(open.day)} – ${this.show(day)}`;
    this.steps.push(
      effect === 'suspended'
        ? `${capitalize(open.reason)} pause ${span} suspended the clock: ${excludedDays} ${this.rule.period.unit === 'business_days' ? 'working ' : ''}day(s) do not count → last day ${this.show(after.lastDay)}.`
        : effect === 'restarted'
          ? `${capitalize(open.reason)} pause ${span} restarted the clock: the period runs again from ${this.show(day)} → it ends ${this.show(after.periodEnd)}${this.rollText(after)}.`
          : `${capitalize(open.reason)} pause ${span} did not move the deadline (last day ${this.show(before.lastDay)}).`,
    );
  }

  /** An approved appeal: the appeal clock runs in full from the reopening day; what went before no longer counts. */
  private reopen(event: Extract<ClockEvent, { kind: 'reopen' }>): void {
    // A request closed while paused (e.g. verification rejected) ends that pause when it reopens.
    if (this.openPause) this.resume({ kind: 'resume', at: event.at, actor: event.actor });
    this.closeRunningSegment(event.at);
    for (let i = 0; i < this.segments.length; i++) this.segments[i] = { ...this.segments[i], countsTowardDeadline: false };
    const day = localDateOf(event.at, this.zone);
    this.rule = appealClockRule(this.input.pack, effectiveRule(this.input));
    Object.assign(this.running, { startDay: day, startedAt: event.at, suspended: [], extensionDays: 0, extensionMonths: 0, extensionCount: 0 });
    this.segmentStart = { at: event.at, reason: 'reopen', actor: event.actor };
    const after = this.deadline(this.running);
    this.steps.push(
      `Reopened on appeal ${this.show(day)}: ${this.input.pack.appeal ? "the pack's appeal period" : "the pack has no appeal period, so the request type's own period"} (${describePeriod(this.rule.period)}) runs from then → it ends ${this.show(after.periodEnd)}${this.rollText(after)}.`,
    );
  }

  private extend(event: Extract<ClockEvent, { kind: 'extension' }>): void {
    const ext = requireExtensionRule(this.rule, this.input.pack);
    const months = event.additionalMonths ?? 0;
    const days = event.additionalDays ?? 0;
    const wantedUnit = ext.maxTotal?.unit ?? (this.rule.period.unit === 'months' ? 'months' : 'calendar_days');
    if (months > 0 === days > 0 || (wantedUnit === 'months' ? months <= 0 : days <= 0)) {
      const field = wantedUnit === 'months' ? 'additionalMonths' : 'additionalDays';
      throw new ClockRuleError(
        'EXTENSION_UNIT_MISMATCH',
        `${this.input.pack.packId} extends in ${wantedUnit === 'months' ? 'months' : 'days'}: give ${field} (a positive whole number) and nothing else.`,
        { field },
      );
    }
    if (ext.reasonRequired && !event.reason?.trim()) {
      throw new ClockRuleError('EXTENSION_REASON_REQUIRED', `${this.input.pack.packId} requires the reasons for the delay to be given with the extension.`, { field: 'reason' });
    }
    if (this.running.extensionCount >= ext.maxCount) {
      throw new ClockRuleError('EXTENSION_EXCEEDS_MAXIMUM', `${this.input.pack.packId} allows ${ext.maxCount} extension(s); ${this.running.extensionCount} already granted.`, this.limits(ext));
    }
    if (ext.maxTotal) {
      const used = ext.maxTotal.unit === 'months' ? this.running.extensionMonths : this.running.extensionDays;
      const asked = ext.maxTotal.unit === 'months' ? months : days;
      if (used + asked > ext.maxTotal.amount) {
        throw new ClockRuleError(
          'EXTENSION_EXCEEDS_MAXIMUM',
          `${this.input.pack.packId} allows at most ${describeAmount(ext.maxTotal.amount, ext.maxTotal.unit)} of extension in all; ${describeAmount(used, ext.maxTotal.unit)} already granted, ${describeAmount(asked, ext.maxTotal.unit)} asked.`,
          this.limits(ext),
        );
      }
    }
    const day = localDateOf(event.at, this.zone);
    const notice = this.noticeWindow(ext, day);
    if (day > notice.lastDay) {
      throw new ClockRuleError(
        'EXTENSION_NOTICE_PERIOD_ELAPSED',
        `An extension had to be notified by the end of ${this.show(notice.lastDay)} (${describePeriod(ext.noticeWithin)} from ${this.show(this.running.startDay)}); it is now ${this.show(day)}, too late to extend.`,
        { noticeDueAt: notice.dueAt.toISOString() },
      );
    }
    const previous = this.deadline(this.running);
    this.running.extensionDays += days;
    this.running.extensionMonths += months;
    this.running.extensionCount += 1;
    const next = this.deadline(this.running);
    this.extensions.push({
      at: event.at,
      actor: event.actor,
      ...(months > 0 ? { additionalMonths: months } : { additionalDays: days }),
      justification: event.justification,
      reason: event.reason ?? null,
      noticeDueAt: notice.dueAt,
      previousDueAt: previous.dueAt,
      dueAt: next.dueAt,
    });
    this.steps.push(
      `Extension of ${months > 0 ? describeAmount(months, 'months') : describeAmount(days, 'calendar_days')} (${event.justification}) notified ${this.show(day)}, inside the notice window ending ${this.show(notice.lastDay)}; counted ${ext.measuredFrom === 'start' ? 'from the clock start' : 'from the end of the base period'} → it ends ${this.show(next.periodEnd)}${this.rollText(next)}.`,
    );
  }

  private result(baseDeadline: Date): ClockResult {
    const final = this.deadline(this.running);
    const open = this.openPause;
    if (open) {
      this.segments.push({
        reason: open.reason,
        from: open.at,
        to: null,
        countsTowardDeadline: !stopsClock(open),
        actor: open.actor,
        policyVersion: this.version,
        rule: open.rule,
      });
      this.pauses.push({ reason: open.reason, rule: open.rule, from: open.at, to: null, excludedDays: 0, effect: 'pending', actor: open.actor });
      this.steps.push(
        stopsClock(open)
          ? `The clock is paused for ${open.reason} since ${open.at.toISOString()}; the due date shown is the earliest it can be and moves when the pause ends.`
          : `A ${open.reason} pause is open since ${open.at.toISOString()}, but the clock keeps running through it: the due date shown does not move when the pause ends.`,
      );
    } else {
      this.closeFinalSegments(final);
    }
    const ext = this.rule.extension;
    const extensionLeft =
      ext && this.running.extensionCount < ext.maxCount && (!ext.maxTotal || (ext.maxTotal.unit === 'months' ? this.running.extensionMonths : this.running.extensionDays) < ext.maxTotal.amount);
    const receiptDay = localDateOf(this.input.receivedAt, this.zone);
    const acknowledgementDueAt = this.rule.acknowledgement ? this.simpleDeadline(this.rule.acknowledgement, receiptDay) : null;
    const refusalNoticeDueAt = this.rule.refusalNotice ? this.stretched(this.rule.refusalNotice).dueAt : final.dueAt;
    this.steps.push(`Due ${final.dueAt.toISOString()} (end of ${this.show(final.lastDay)}, ${this.zone}).`);
    return {
      baseDeadline,
      finalDueAt: final.dueAt,
      lastDay: final.lastDay,
      state: open && stopsClock(open) ? 'paused' : 'running',
      pausedSince: open?.at ?? null,
      startedAt: this.running.startedAt,
      rule: this.rule,
      extensionUsed: { days: this.running.extensionDays, months: this.running.extensionMonths, count: this.running.extensionCount },
      pauses: this.pauses,
      extensions: this.extensions,
      segments: this.segments,
      extensionNoticeDueAt: ext && extensionLeft ? this.noticeWindow(ext).dueAt : null,
      acknowledgementDueAt,
      refusalNoticeDueAt,
      steps: this.steps,
    };
  }

  private closeRunningSegment(to: Date): void {
    this.segments.push({ reason: this.segmentStart.reason, from: this.segmentStart.at, to, countsTowardDeadline: true, actor: this.segmentStart.actor, policyVersion: this.version });
  }

  /** The running segment up to the deadline, split where extensions and the roll add time. */
  private closeFinalSegments(final: Deadline): void {
    const unextended = this.deadline({ ...this.running, extensionDays: 0, extensionMonths: 0 });
    const periodEndAt = endOfLocalDay(final.periodEnd, this.zone);
    const hasExtension = this.extensions.length > 0;
    const runningEnd = hasExtension ? minDate(endOfLocalDay(unextended.periodEnd, this.zone), periodEndAt) : periodEndAt;
    // A request resumed after its deadline has no running time left to show.
    if (runningEnd.getTime() > this.segmentStart.at.getTime()) this.closeRunningSegment(runningEnd);
    if (hasExtension && periodEndAt.getTime() > runningEnd.getTime()) {
      const last = this.extensions[this.extensions.length - 1];
      this.segments.push({ reason: 'extension', from: runningEnd, to: periodEndAt, countsTowardDeadline: true, actor: last.actor, policyVersion: this.version });
    }
    if (final.dueAt.getTime() > periodEndAt.getTime()) {
      this.segments.push({ reason: 'roll', from: periodEndAt, to: final.dueAt, countsTowardDeadline: true, actor: 'system', policyVersion: this.version });
    }
  }

  /** The response deadline for a running state: period (with extensions) from the start, stretched by suspensions, rolled. */
  private deadline(state: Running): Deadline {
    const period = this.rule.period;
    const ext = this.rule.extension;
    let end: string;
    if (state.extensionDays === 0 && state.extensionMonths === 0) {
      end = endOfPeriod(period, state.startDay, this.holidays);
    } else if (ext?.measuredFrom === 'period_end') {
      end = plusCalendar(endOfPeriod(period, state.startDay, this.holidays), state.extensionMonths, state.extensionDays);
    } else if (period.unit === 'months') {
      end = plusCalendar(endOfPeriod({ ...period, amount: period.amount + state.extensionMonths }, state.startDay, this.holidays), 0, state.extensionDays);
    } else if (period.unit === 'calendar_days') {
      end = plusCalendar(endOfPeriod({ ...period, amount: period.amount + state.extensionDays }, state.startDay, this.holidays), state.extensionMonths, 0);
    } else {
      end = plusCalendar(endOfPeriod(period, state.startDay, this.holidays), state.extensionMonths, state.extensionDays);
    }
    return this.finish(this.stretch(end, period.unit, state.suspended), period.roll);
  }

  /** A period from the current start with suspensions (notice windows, refusal notices). */
  private stretched(period: PeriodRule, moreSuspended: ReadonlyArray<readonly [string, string]> = []): Deadline {
    const end = endOfPeriod(period, this.running.startDay, this.holidays);
    return this.finish(this.stretch(end, period.unit, [...this.running.suspended, ...moreSuspended]), period.roll);
  }

  /**
   * Until when an extension can be notified. The suspended days stretch the window (DPA 2018 s54(3C)
   * excludes them from it too), and so do the days of a suspension still open on `asOfDay`.
   */
  private noticeWindow(ext: ExtensionRule, asOfDay?: string): Deadline {
    const open = this.openPause;
    const openSpan = open && asOfDay && open.rule === 'suspend' && !open.afterDeadline && asOfDay >= open.day ? [[open.day, asOfDay] as const] : [];
    return this.stretched(ext.noticeWithin, openSpan);
  }

  /** What a refused extension reports: the pack's limits and what is already granted. */
  private limits(ext: ExtensionRule): Record<string, unknown> {
    const granted = ext.maxTotal?.unit === 'months' ? this.running.extensionMonths : this.running.extensionDays;
    return { maximum: ext.maxTotal, maxCount: ext.maxCount, alreadyGranted: { amount: granted, count: this.running.extensionCount } };
  }

  private simpleDeadline(period: PeriodRule, fromDay: string): Date {
    return this.finish(endOfPeriod(period, fromDay, this.holidays), period.roll).dueAt;
  }

  /** Moves a period end by the suspended days: calendar days, or working days for a business-day period. */
  private stretch(end: string, unit: PeriodRule['unit'], suspended: ReadonlyArray<readonly [string, string]>): string {
    let shifted = end;
    for (const [from, to] of suspended) {
      const excluded = this.countExcludedFor(unit, from, to);
      shifted = unit === 'business_days' ? addWorkingDays(shifted, excluded, false, this.holidays) : plusCalendar(shifted, 0, excluded);
    }
    return shifted;
  }

  private countExcludedFor(unit: PeriodRule['unit'], from: string, to: string): number {
    const first = parseLocalDate(from);
    const span = Math.round(parseLocalDate(to).diff(first, 'days').days) + 1;
    if (unit !== 'business_days') return span;
    let working = 0;
    for (let i = 0; i < span; i++) if (isWorkingDay(first.plus({ days: i }).toISODate(), this.holidays)) working++;
    return working;
  }

  private finish(periodEnd: string, roll: PeriodRule['roll']): Deadline {
    const lastDay = rollOffRestDays(periodEnd, roll, this.holidays);
    return { periodEnd, lastDay, dueAt: endOfLocalDay(lastDay, this.zone) };
  }

  private rollText(d: Deadline): string {
    return d.lastDay === d.periodEnd ? '' : `, not a working day, so the last day rolls to ${this.show(d.lastDay)}`;
  }

  private show(day: string): string {
    return parseLocalDate(day).toFormat(DAY_FORMAT);
  }
}

interface Deadline {
  /** The local day the period ends on before the roll. */
  periodEnd: string;
  lastDay: string;
  dueAt: Date;
}

const PAUSE_RULE_TEXT: Record<PauseRule, string> = {
  restart: 'the period runs again in full from the day the pause ends',
  suspend: 'the paused days, both end days included, do not count',
  ignore: 'the clock keeps running',
};

/** Whether an open pause stops the clock: an `ignore` rule, or a start after the last day, leaves it running. */
function stopsClock(open: { readonly rule: PauseRule; readonly afterDeadline: boolean }): boolean {
  return open.rule !== 'ignore' && !open.afterDeadline;
}

function plusCalendar(day: string, months: number, days: number): string {
  return parseLocalDate(day).plus({ months }).plus({ days }).toISODate();
}

function minDate(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeAmount(amount: number, unit: PeriodRule['unit']): string {
  const name = unit === 'months' ? 'month' : unit === 'business_days' ? 'business day' : 'day';
  return `${amount} ${name}${amount === 1 ? '' : 's'}`;
}

export function describePeriod(period: PeriodRule): string {
  const counting = period.unit === 'months' ? '' : period.countReceiptDay ? ', the receipt day counted' : ', the receipt day not counted';
  return `${describeAmount(period.amount, period.unit)}${counting}`;
}

/** An ISO 8601 duration between two instants, in days, hours, minutes and seconds ("P5DT3H"). */
export function isoDuration(from: Date, to: Date): string {
  const ms = Math.max(0, to.getTime() - from.getTime());
  return Duration.fromMillis(ms).shiftTo('days', 'hours', 'minutes', 'seconds').normalize().toISO() ?? 'PT0S';
}

/** When a controller must answer an appeal received at `receivedAt`, optionally with the pack's appeal extension. */
export function appealDueAt(pack: PolicyPack, binding: JurisdictionBinding, receivedAt: Date, extended = false): Date | null {
  if (!pack.appeal) return null;
  const day = localDateOf(receivedAt, binding.timeZone);
  const { response, extension } = pack.appeal;
  let end = endOfPeriod(response, day, binding.holidays);
  if (extended && extension?.maxTotal) {
    end = extension.maxTotal.unit === 'months' ? plusCalendar(end, extension.maxTotal.amount, 0) : plusCalendar(end, 0, extension.maxTotal.amount);
  }
  return endOfLocalDay(rollOffRestDays(end, response.roll, binding.holidays), binding.timeZone);
}
