import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { IdentityHeaders, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : undefined;
}

/** The caller the gateway authenticated, from its identity headers. */
export function principalOf(req: Request): Principal {
  const tenantId = header(req, IdentityHeaders.tenant);
  const id = header(req, IdentityHeaders.principal);
  if (!tenantId || !id) {
    throw new ProblemError('AUTHENTICATION_REQUIRED', 'No caller identity: this internal API is reached through the api-gateway.');
  }
  return {
    id,
    tenantId,
    workspaceId: header(req, IdentityHeaders.workspace),
    roles: (header(req, IdentityHeaders.roles) ?? '').split(',').filter(Boolean),
  };
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

/** Headers that carry the caller on to another internal service. */
export function identityHeaders(principal: Principal): Record<string, string> {
  return {
    [IdentityHeaders.tenant]: principal.tenantId,
    [IdentityHeaders.principal]: principal.id,
    [IdentityHeaders.roles]: principal.roles.join(','),
    ...(principal.workspaceId ? { [IdentityHeaders.workspace]: principal.workspaceId } : {}),
  };
}
