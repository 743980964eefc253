import { OPEN_STATUSES, type RequestStatus } from '@dsar/contracts';
import type { ApiClient } from './api-client';

/**
 * The `allowedActions` of lifecycle-clock's own 409 `LIFECYCLE_TRANSITION_DISALLOWED` for the request as it is:
 * asked with an action its status refuses (an appeal of an open request, an acknowledgement of a closed one), so
 * nothing changes. The other services' 409s for the same request must name the same list.
 */
export async function clockAllowedActions(api: ApiClient, id: string): Promise<string[]> {
  const status = (await api.get(`/requests/${id}`)).body.status as RequestStatus;
  const open = (OPEN_STATUSES as readonly RequestStatus[]).includes(status);
  const refused = open ? await api.post(`/requests/${id}/appeals`, { message: 'A probe of the allowed actions.' }) : await api.post(`/requests/${id}/acknowledgements`, {});
  expect({ status: refused.status, code: refused.body?.code, currentStatus: refused.body?.currentStatus }).toEqual({ status: 409, code: 'SVC-BE-1401', currentStatus: status });
  expect(refused.body.allowedActions.length).toBeGreaterThan(0);
  return refused.body.allowedActions;
}
