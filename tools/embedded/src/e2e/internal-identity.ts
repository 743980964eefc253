import type { Principal } from '@dsar/contracts';
import { InternalAuthKey, requestTargetOf, signatureTime, signedIdentityHeaders } from '@dsar/platform/http';

/** The principal a test acts as when it plays another service on an internal port. */
export function servicePrincipal(tenantId: string, id = 'service:verification', roles: string[] = ['admin']): Principal {
  return { id, tenantId, roles };
}

/**
 * The identity headers of a direct call to an internal port, signed the way
 * the gateway signs them (ADR 0020), with `key` (the system's internal auth
 * key, or another to forge) at `now`: the infrastructure time signatures
 * are checked with (not the test system's clock, which the scenarios move).
 */
export function signedInternalHeaders(key: string, method: string, url: string, principal: Principal, now: number = signatureTime()): Record<string, string> {
  return signedIdentityHeaders(InternalAuthKey.from(key), method, requestTargetOf(new URL(url)), principal, now);
}
