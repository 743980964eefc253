import { z } from 'zod';
import { PERMISSIONS, ROLES } from '../auth/roles';

/**
 * Who the caller is, as the gateway authenticated it (`GET /session`): what the console shows in its header and uses
 * to hide what the caller may not do. The API decides every call again; this only saves asking for a refusal.
 */
export const sessionView = z
  .object({
    principal: z.string().describe('`jwt:<sub>` for a token of the issuer, `key:<16 hex>` for an API key'),
    tenantId: z.string(),
    workspaceId: z.string().nullable().describe('The workspace the caller is confined to; null: the whole tenant'),
    roles: z.array(z.enum(ROLES)),
    permissions: z.array(z.enum(Object.keys(PERMISSIONS) as [keyof typeof PERMISSIONS, ...(keyof typeof PERMISSIONS)[]])).describe('What the roles grant together, in the order of the roles table'),
  })
  .meta({ id: 'Session' });
export type SessionView = z.infer<typeof sessionView>;
