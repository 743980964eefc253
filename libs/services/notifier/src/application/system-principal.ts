import type { Principal } from '@dsar/contracts';

/** Who the notifier is when it reads a request to write about it. */
export const NOTIFIER_ACTOR = 'system:notifier';

/** The notifier acting within a tenant (and the request's workspace), as an operator would read. */
export function notifierPrincipal(tenantId: string, workspaceId?: string | null): Principal {
  return { id: NOTIFIER_ACTOR, tenantId, ...(workspaceId ? { workspaceId } : {}), roles: ['operator'] };
}
