import { type RequestType, resolveJurisdiction, type ResolvedJurisdiction, supportedJurisdictions } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { computeBaseDeadline } from './deadline';

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

/** When a new request is due: the pack's base period for its type, counted from the provenance time. */
export function initialDueAt(jurisdiction: ResolvedJurisdiction, requestType: RequestType, intakeReceivedAt: Date): Date {
  return computeBaseDeadline(jurisdiction.pack.periods[requestType], jurisdiction.binding, intakeReceivedAt).dueAt;
}
