import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { verifiedPrincipalOf } from './internal-identity';

/**
 * The caller the gateway authenticated: the identity headers of this request,
 * verified against their signature by the host's internal identity middleware
 * (`internalIdentity`). Identity headers without a valid signature are a 401
 * INTERNAL_IDENTITY_INVALID; a request without identity a 401
 * AUTHENTICATION_REQUIRED.
 */
export function principalOf(req: Request): Principal {
  const principal = verifiedPrincipalOf(req);
  if (!principal) {
    throw new ProblemError('AUTHENTICATION_REQUIRED', 'No caller identity: this internal API is reached through the api-gateway.');
  }
  return principal;
}

/** Handler parameter: the authenticated caller (tenant, workspace, roles). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => principalOf(ctx.switchToHttp().getRequest<Request>()));

/** The rows a caller may see: its tenant, and its workspace when it is confined to one. */
export interface TenantScope {
  readonly tenantId: string;
  readonly workspaceId?: string;
}

export function scopeOf(principal: Principal): TenantScope {
  return principal.workspaceId ? { tenantId: principal.tenantId, workspaceId: principal.workspaceId } : { tenantId: principal.tenantId };
}
