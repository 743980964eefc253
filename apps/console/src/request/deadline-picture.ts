import type { ClockExplanation } from '@dsar/contracts';
import { labelOf, PAUSE_REASON_LABELS } from '../labels';
import { daysLeft } from '../queue/days-left';

/*
 * The deadline picture's geometry, from the clock's own explanation (`GET /requests/{id}/clock/explain`) and the time
 * now: pure, so that the drawing (DeadlinePicture.tsx) only places what this computes. A horizontal axis from receipt
 * to the later of the due date and now; positions and widths in percent of it.
 */

export type DeadlineInput = Pick<ClockExplanation, 'baseDeadline' | 'finalDueAt' | 'pauses' | 'extensions' | 'clock'>;
type Pause = ClockExplanation['pauses'][number];
type Extension = ClockExplanation['extensions'][number];

/**
 * `running`: time that counts toward the deadline; `not-counting`: time before a restart, which no longer counts;
 * `pause`: a pause (hatched), whatever it did; `extension`: time an extension added; `remaining`: while the clock is
 * paused, the rest of the period, from now to the earliest due date (it moves when the pause ends).
 */
export type BandKind = 'running' | 'not-counting' | 'pause' | 'extension' | 'remaining';

export interface Band {
  kind: BandKind;
  from: string;
  /** The end; for an open pause, now. */
  to: string;
  /** Left edge and width, in percent of the axis. */
  x: number;
  width: number;
  /** What the band is, in words (the picture's legend). */
  label: string;
  /** A pause still open. */
  open: boolean;
}

export type MarkerKind = 'base-deadline' | 'due' | 'today';

export interface Marker {
  kinds: MarkerKind[];
  at: string;
  x: number;
  /** Its short label under the axis ("Due", "Base deadline and due", "Today"). */
  label: string;
  /** The label's row under the axis: the markers' order in time (at most three markers). */
  row: 0 | 1 | 2;
}

export interface DeadlineGeometry {
  start: string;
  end: string;
  /** The base period: from receipt to the base deadline, before pauses and extensions. */
  basePeriod: { x: number; width: number };
  bands: Band[];
  markers: Marker[];
}

const PAUSE_REASONS = new Set(Object.keys(PAUSE_REASON_LABELS));

const ms = (iso: string) => new Date(iso).getTime();
const round = (n: number) => Math.round(n * 100) / 100;

/** Places instants on the axis: percent from the start, within 0–100. An axis of no length puts everything at 0. */
function scaleOf(startMs: number, endMs: number) {
  const span = endMs - startMs;
  const x = (t: number) => (span <= 0 ? 0 : round(Math.min(100, Math.max(0, ((t - startMs) / span) * 100))));
  return { x, width: (from: number, to: number) => round(Math.max(0, x(to) - x(from))) };
}

/** How long, in words: whole days, or hours under a day. */
function durationWords(fromMs: number, toMs: number): string {
  const hours = Math.max(0, Math.round((toMs - fromMs) / 3_600_000));
  if (hours === 0) return 'less than an hour';
  if (hours < 24) return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  const d = Math.round(hours / 24);
  return `${d} ${d === 1 ? 'day' : 'days'}`;
}

/** What a pause did to the deadline, in words. */
export function pauseEffectWords(pause: Pick<Pause, 'effect' | 'rule' | 'excludedDays'>): string {
  switch (pause.effect) {
    case 'suspended':
      return `suspended the clock: ${pause.excludedDays} ${pause.excludedDays === 1 ? 'day does' : 'days do'} not count`;
    case 'restarted':
      return 'restarted the period when it ended';
    case 'ignored':
      return 'did not stop the clock: the time counts';
    case 'after_deadline':
      return 'began after the deadline: no effect';
    case 'pending':
      return pause.rule === 'ignore' ? 'still open; the time counts' : pause.rule === 'restart' ? 'still open; the period restarts when it ends' : 'still open; the clock is suspended';
    default:
      return String(pause.effect).replace(/_/g, ' ');
  }
}

function pauseLabel(pause: Pause, nowMs: number, formatDate: (iso: string) => string): string {
  const reason = labelOf(PAUSE_REASON_LABELS, pause.reason);
  const end = pause.to === null ? 'now' : formatDate(pause.to);
  const length = durationWords(ms(pause.from), pause.to === null ? nowMs : ms(pause.to));
  return `${reason} pause, ${formatDate(pause.from)} to ${end} (${length}): ${pauseEffectWords(pause)}`;
}

function extensionAmount(extension: Extension): string {
  if (extension.additionalMonths !== undefined) return `${extension.additionalMonths} ${extension.additionalMonths === 1 ? 'month' : 'months'}`;
  return `${extension.additionalDays} ${extension.additionalDays === 1 ? 'day' : 'days'}`;
}

function extensionLabel(extension: Extension | undefined, formatDate: (iso: string) => string, to: string): string {
  if (!extension) return `Extension to ${formatDate(to)}`;
  const why = extension.justification.replace(/_/g, ' ');
  return `Extension of ${extensionAmount(extension)} (${why}), to ${formatDate(extension.dueAt)}`;
}

/** The date as the geometry's labels write it when no formatter is given: the ISO day. */
const isoDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

export function deadlineGeometry(explanation: DeadlineInput, now: Date, formatDate: (iso: string) => string = isoDay): DeadlineGeometry {
  const nowMs = now.getTime();
  const startMs = ms(explanation.clock.receivedAt);
  const pauseEnds = explanation.pauses.map((p) => (p.to === null ? nowMs : ms(p.to)));
  const endMs = Math.max(startMs, ms(explanation.finalDueAt), ms(explanation.baseDeadline), nowMs, ...pauseEnds);
  const scale = scaleOf(startMs, endMs);
  const bandOf = (kind: BandKind, fromMs: number, toMs: number, label: string, open = false): Band => ({
    kind,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    x: scale.x(fromMs),
    width: scale.width(fromMs, toMs),
    label,
    open,
  });

  const bands: Band[] = [];
  // The clock's stretches, pauses aside: the pauses are drawn from `pauses`, which say what each did.
  let extensionIndex = 0;
  for (const segment of explanation.clock.segments) {
    if (PAUSE_REASONS.has(segment.reason)) continue;
    const fromMs = ms(segment.from);
    const toMs = segment.to === null ? nowMs : ms(segment.to);
    if (segment.reason === 'extension') {
      bands.push(bandOf('extension', fromMs, toMs, extensionLabel(explanation.extensions[extensionIndex++], formatDate, segment.to ?? new Date(nowMs).toISOString())));
    } else if (segment.countsTowardDeadline) {
      bands.push(bandOf('running', fromMs, toMs, `Counts toward the deadline, ${formatDate(segment.from)} to ${formatDate(new Date(toMs).toISOString())}`));
    } else {
      bands.push(bandOf('not-counting', fromMs, toMs, `No longer counts (before a restart), ${formatDate(segment.from)} to ${formatDate(new Date(toMs).toISOString())}`));
    }
  }
  // Extensions the segments do not show (none should be missing): drawn from their own dates.
  for (const extension of explanation.extensions.slice(extensionIndex)) {
    bands.push(bandOf('extension', ms(extension.previousDueAt), ms(extension.dueAt), extensionLabel(extension, formatDate, extension.dueAt)));
  }
  explanation.pauses.forEach((pause, i) => {
    bands.push(bandOf('pause', ms(pause.from), pauseEnds[i], pauseLabel(pause, nowMs, formatDate), pause.to === null));
  });
  // While paused, the segments end with the open pause: the period still to run is drawn up to the due date shown.
  const dueMs = ms(explanation.finalDueAt);
  if (explanation.clock.state === 'paused' && dueMs > nowMs) {
    bands.push(bandOf('remaining', nowMs, dueMs, `Still to run once the pause ends: due ${formatDate(explanation.finalDueAt)} at the earliest`));
  }
  bands.sort((a, b) => ms(a.from) - ms(b.from) || (a.kind === 'pause' ? 1 : 0) - (b.kind === 'pause' ? 1 : 0));

  return {
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    basePeriod: { x: scale.x(startMs), width: scale.width(startMs, ms(explanation.baseDeadline)) },
    bands,
    markers: markersOf(explanation, nowMs, scale.x),
  };
}

const MARKER_NAMES: Record<MarkerKind, string> = { 'base-deadline': 'Base deadline', due: 'Due', today: 'Today' };

/** The base deadline, the due date and today; markers at the same instant are one, with both names. */
function markersOf(explanation: DeadlineInput, nowMs: number, x: (t: number) => number): Marker[] {
  const points: Array<{ kind: MarkerKind; at: number }> = [
    { kind: 'base-deadline', at: ms(explanation.baseDeadline) },
    { kind: 'due', at: ms(explanation.finalDueAt) },
    { kind: 'today', at: nowMs },
  ];
  points.sort((a, b) => a.at - b.at);
  const markers: Marker[] = [];
  for (const point of points) {
    const last = markers[markers.length - 1];
    if (last && ms(last.at) === point.at) {
      last.kinds.push(point.kind);
      continue;
    }
    markers.push({ kinds: [point.kind], at: new Date(point.at).toISOString(), x: x(point.at), label: '', row: 0 });
  }
  markers.forEach((marker, i) => {
    const names = marker.kinds.map((k, n) => (n === 0 ? MARKER_NAMES[k] : MARKER_NAMES[k].toLowerCase()));
    marker.label = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    // A row of its own for each label: at a phone's width, even markers far apart on the axis have labels that touch.
    marker.row = i as Marker['row'];
  });
  return markers;
}

/**
 * The picture's text alternative, starting "Deadline:": the due date and the days left, the base deadline, each
 * pause with what it did and each extension, and the clock's state.
 */
export function deadlineSummary(explanation: DeadlineInput, now: Date, formatDate: (iso: string) => string = isoDay, timeZone?: string): string {
  const left = daysLeft({ dueAt: explanation.finalDueAt, receivedAt: explanation.clock.receivedAt, now, timeZone });
  const parts = [`Deadline: due ${formatDate(explanation.finalDueAt)} (${left.text}).`, `Received ${formatDate(explanation.clock.receivedAt)}; base deadline ${formatDate(explanation.baseDeadline)}.`];
  const nowMs = now.getTime();
  if (explanation.pauses.length === 0) parts.push('No pauses.');
  else parts.push(`${explanation.pauses.length} ${explanation.pauses.length === 1 ? 'pause' : 'pauses'}: ${explanation.pauses.map((p) => pauseLabel(p, nowMs, formatDate)).join('; ')}.`);
  if (explanation.extensions.length > 0) {
    parts.push(
      `${explanation.extensions.length} ${explanation.extensions.length === 1 ? 'extension' : 'extensions'}: ${explanation.extensions.map((e) => extensionLabel(e, formatDate, e.dueAt)).join('; ')}.`,
    );
  }
  if (explanation.clock.state === 'paused' && explanation.clock.pausedSince) parts.push(`The clock is paused since ${formatDate(explanation.clock.pausedSince)}.`);
  return parts.join(' ');
}
