import { type ClockMode, type JurisdictionBinding, type PolicyPack, type RequestType, resolveJurisdiction, type ResolvedJurisdiction, supportedJurisdictions } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { computeClock, localDateOf } from '@dsar/platform/deadline';

/** The pack and calendar of a jurisdiction, or a 422 that lists the supported ones. */
export function requireJurisdiction(code: string): ResolvedJurisdiction {
  const resolved = resolveJurisdiction(code);
  if (!resolved) {
    const supported = supportedJurisdictions();
    throw new ProblemError(
      'JURISDICTION_UNSUPPORTED',
      `No policy pack covers jurisdiction '${code}'. Supported: ${supported.join(', ')}.`,
      [{ field: 'jurisdiction', message: 'is not a supported jurisdiction' }],
      { supported },
    );
  }
  return resolved;
}

/** The clock mode a new request gets: the one asked for if the pack allows it, else the pack's default. */
export function requireClockMode(jurisdiction: { pack: PolicyPack; binding: JurisdictionBinding }, asked: ClockMode | undefined): ClockMode {
  const { clockModes, packId } = jurisdiction.pack;
  if (asked === undefined) return clockModes.default;
  if (!clockModes.allowed.includes(asked)) {
    throw new ProblemError(
      'CLOCK_MODE_NOT_ALLOWED',
      `${packId} does not let the clock start in mode '${asked}' for ${jurisdiction.binding.code}; allowed: ${clockModes.allowed.join(', ')}.`,
      [{ field: 'clockMode', message: `must be one of ${clockModes.allowed.join(', ')} for ${jurisdiction.binding.code}` }],
      { allowed: clockModes.allowed },
    );
  }
  return asked;
}

/** A new request's deadlines: the clock engine on the pack's rules with no pause or extension yet. */
export function initialDeadlines(
  jurisdiction: { pack: PolicyPack; binding: JurisdictionBinding },
  /** null: in triage, on the pack's default rule. */
  requestType: RequestType | null,
  clockMode: ClockMode,
  intakeReceivedAt: Date,
): { dueAt: Date; acknowledgementDueAt: Date | null } {
  // Without events the clock counts whole local days from the day of receipt, so every receipt of one local day gets
  // the same deadlines: computed once per day, pack (by identity), calendar, type and mode, not once per request.
  const key = `${jurisdiction.binding.code}|${jurisdiction.binding.timeZone}|${requestType}|${clockMode}|${localDateOf(intakeReceivedAt, jurisdiction.binding.timeZone)}`;
  let byPack = initialDeadlineCache.get(jurisdiction.pack);
  if (!byPack) initialDeadlineCache.set(jurisdiction.pack, (byPack = new Map()));
  const known = byPack.get(key);
  if (known) return copyOf(known);
  const clock = computeClock({ pack: jurisdiction.pack, binding: jurisdiction.binding, requestType, clockMode, receivedAt: intakeReceivedAt, events: [] });
  const deadlines = { dueAt: clock.finalDueAt, acknowledgementDueAt: clock.acknowledgementDueAt };
  if (byPack.size >= MAX_CACHED_DAYS_PER_PACK) byPack.clear();
  byPack.set(key, deadlines);
  return copyOf(deadlines);
}

function copyOf(d: { dueAt: Date; acknowledgementDueAt: Date | null }): { dueAt: Date; acknowledgementDueAt: Date | null } {
  return { dueAt: new Date(d.dueAt), acknowledgementDueAt: d.acknowledgementDueAt && new Date(d.acknowledgementDueAt) };
}

/** Deadlines already computed, per pack document (a custom pack's document is one object per tenant and version). */
const initialDeadlineCache = new WeakMap<PolicyPack, Map<string, { dueAt: Date; acknowledgementDueAt: Date | null }>>();
const MAX_CACHED_DAYS_PER_PACK = 10_000;
