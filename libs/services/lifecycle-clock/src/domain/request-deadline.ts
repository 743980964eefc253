import { type ClockMode, type JurisdictionBinding, type PolicyPack, type RequestType, resolveJurisdiction, type ResolvedJurisdiction, supportedJurisdictions } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { computeClock } from '@dsar/platform/deadline';

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
export function initialDeadlines(jurisdiction: { pack: PolicyPack; binding: JurisdictionBinding }, requestType: RequestType, clockMode: ClockMode, intakeReceivedAt: Date): { dueAt: Date; acknowledgementDueAt: Date | null } {
  const clock = computeClock({ pack: jurisdiction.pack, binding: jurisdiction.binding, requestType, clockMode, receivedAt: intakeReceivedAt, events: [] });
  return { dueAt: clock.finalDueAt, acknowledgementDueAt: clock.acknowledgementDueAt };
}
