import { ROLE_PERMISSIONS } from '@dsar/contracts';
import { sessionOf } from './session-routes';

describe('GET /session: who the caller is', () => {
  it('names the principal, its tenant and workspace, its roles and what they grant together, in the order of the roles table', () => {
    expect(sessionOf({ id: 'jwt:ada', tenantId: 'acme', workspaceId: 'north', roles: ['auditor', 'intake'] })).toEqual({
      principal: 'jwt:ada',
      tenantId: 'acme',
      workspaceId: 'north',
      roles: ['auditor', 'intake'],
      permissions: ['requests:create', 'requests:read', 'audit:export', 'audit:verify', 'policies:read', 'retention:read', 'systems:read', 'session:read'],
    });
  });

  it('says null for a caller of the whole tenant, and grants an admin every permission', () => {
    const admin = sessionOf({ id: 'key:0123456789abcdef', tenantId: 'acme', roles: ['admin'] });
    expect(admin.workspaceId).toBeNull();
    expect(admin.permissions).toEqual(ROLE_PERMISSIONS.admin);
  });

  it('lets every role ask, the connector included', () => {
    expect(sessionOf({ id: 'key:fedcba9876543210', tenantId: 'acme', roles: ['connector'] }).permissions).toEqual(['tasks:work', 'session:read']);
  });
});
