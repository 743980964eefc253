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

/**
 * The caller of a route that acts on (or reveals) the whole tenant, not one workspace: a tenant-wide setting, a
 * report over every workspace, a resource no workspace owns. A caller confined to a workspace is refused (403
 * PERMISSION_DENIED): the gateway already refuses it for a `tenantWide` route, and the owning service refuses it
 * again so that no other way in (a service calling another, a route added without the flag) widens a workspace key.
 * `what` names the resource in the refusal, e.g. "Retention policies".
 */
export function tenantWideCaller(principal: Principal, what: string): Principal {
  if (principal.workspaceId !== undefined) {
    throw new ProblemError('PERMISSION_DENIED', `${what} cover every workspace of the tenant; a caller confined to one workspace may not use them.`);
  }
  return principal;
}

/** Handler parameter: the authenticated caller, which must not be confined to a workspace (`tenantWideCaller`); the data names the resource. */
export const TenantWidePrincipal = createParamDecorator((what: string, ctx: ExecutionContext): Principal => tenantWideCaller(principalOf(ctx.switchToHttp().getRequest<Request>()), what));
