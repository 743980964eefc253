import { changeWords, nextStep, openRequestsWords, stepPath } from './proposals';

describe('upgrade proposals', () => {
  it('offers the next step by status, to a caller who may manage policies only', () => {
    const manage = ['policies:read', 'policies:manage'];
    expect(nextStep({ status: 'pending_approval' }, manage)).toBe('approve');
    expect(nextStep({ status: 'approved' }, manage)).toBe('apply');
    expect(nextStep({ status: 'applied' }, manage)).toBeNull();
    expect(nextStep({ status: 'pending_approval' }, ['policies:read'])).toBeNull();
  });

  it('puts a change in words', () => {
    const change = { source: 'custom' as const, packId: 'acme-uk', jurisdiction: 'GB', workspaceId: null, from: '1.0.0', to: '1.1.0', changelog: '', openRequests: 2 };
    expect(changeWords(change)).toBe('acme-uk (custom, GB) 1.0.0 → 1.1.0');
    expect(changeWords({ ...change, source: 'built_in', jurisdiction: null, packId: 'uk-gdpr' })).toBe('uk-gdpr (built-in) 1.0.0 → 1.1.0');
    expect(changeWords({ ...change, workspaceId: 'north' })).toBe('acme-uk (custom, GB, workspace north) 1.0.0 → 1.1.0');
    expect(openRequestsWords(0)).toBe('no open request on the old version');
    expect(openRequestsWords(1)).toBe('1 open request on the old version');
    expect(stepPath('p/1', 'apply')).toBe('/policies/upgrades/p%2F1/apply');
  });
});
