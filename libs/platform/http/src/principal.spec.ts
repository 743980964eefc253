import { ProblemError } from '@dsar/platform/errors';
import { tenantWideCaller } from './principal';

describe('tenantWideCaller', () => {
  it('lets a caller of the whole tenant through, unchanged', () => {
    const principal = { id: 'key:0123456789abcdef', tenantId: 'acme', roles: ['admin'] };
    expect(tenantWideCaller(principal, 'Retention policies')).toBe(principal);
  });

  it('refuses a caller confined to a workspace with 403 PERMISSION_DENIED, naming what it asked for', () => {
    const confined = { id: 'key:0123456789abcdef', tenantId: 'acme', workspaceId: 'north', roles: ['admin'] };
    let refusal: unknown;
    try {
      tenantWideCaller(confined, 'Retention policies');
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(ProblemError);
    expect((refusal as ProblemError).definition.name).toBe('PERMISSION_DENIED');
    expect((refusal as ProblemError).message).toMatch(/^Retention policies cover every workspace of the tenant/);
  });
});
