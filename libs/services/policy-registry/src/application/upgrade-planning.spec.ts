import type { UpgradeChange } from '@dsar/contracts';
import type { CustomPackRecord } from './custom-packs';
import type { PackSet } from './pack-sets';
import { movedBy, plannedChanges } from './upgrade-proposals';

const set = (over: Partial<PackSet>): PackSet => ({ tenantId: 'tenant-a', revision: 1, builtInPins: {}, activations: [], ...over });
const record = (version: string, changelog: string, approvedBy: string | null = 'key:second-admin'): CustomPackRecord => ({
  name: 'acme-uk',
  jurisdiction: 'GB',
  version,
  releaseType: 'minor',
  changelog,
  pack: {} as CustomPackRecord['pack'],
  registeredBy: 'key:first-admin',
  approvedBy,
});

describe('plannedChanges', () => {
  it('proposes a built-in pack pinned below its newest release, with every changelog passed over, newest first', () => {
    const [change, ...rest] = plannedChanges(set({ builtInPins: { 'uk-gdpr': '1.0.0', 'eu-gdpr': '1.0.0' } }), []);
    expect(rest).toEqual([]);
    expect(change).toMatchObject({ source: 'built_in', packId: 'uk-gdpr', jurisdiction: null, workspaceId: null, from: '1.0.0', to: '1.1.0' });
    expect(change.changelog).toMatch(/^1\.1\.0: .*5 February 2026/);
  });

  it('proposes nothing for a tenant that never changed its set (it follows the newest releases) or is up to date', () => {
    expect(plannedChanges(set({ revision: 0 }), [])).toEqual([]);
    expect(plannedChanges(set({ builtInPins: { 'uk-gdpr': '1.1.0' } }), [])).toEqual([]);
  });

  it('proposes a custom activation behind its newest registered version, per scope', () => {
    const activations = [
      { workspaceId: null, jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' },
      { workspaceId: 'north', jurisdiction: 'GB', name: 'acme-uk', version: '1.2.0' },
    ];
    const changes = plannedChanges(set({ activations }), [record('1.0.0', 'first'), record('1.1.0', 'shorter'), record('1.2.0', 'shorter still')]);
    expect(changes).toEqual([{ source: 'custom', packId: 'acme-uk', jurisdiction: 'GB', workspaceId: null, from: '1.0.0', to: '1.2.0', changelog: '1.2.0: shorter still\n1.1.0: shorter' }]);
  });

  it('under four eyes moves a custom activation only as far as its newest approved version, quoting every changelog passed over', () => {
    const activations = [{ workspaceId: null, jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' }];
    const approved = (v: CustomPackRecord) => v.approvedBy !== null;
    const versions = [record('1.0.0', 'first'), record('1.1.0', 'shorter', null), record('1.2.0', 'shorter still'), record('1.3.0', 'unreviewed', null)];
    expect(plannedChanges(set({ activations }), versions, approved)).toEqual([
      { source: 'custom', packId: 'acme-uk', jurisdiction: 'GB', workspaceId: null, from: '1.0.0', to: '1.2.0', changelog: '1.2.0: shorter still\n1.1.0: shorter' },
    ]);
    expect(plannedChanges(set({ activations }), [record('1.0.0', 'first'), record('1.1.0', 'unreviewed', null)], approved)).toEqual([]);
  });
});

describe('movedBy', () => {
  const change = (over: Partial<UpgradeChange>): UpgradeChange => ({
    source: 'built_in',
    packId: 'uk-gdpr',
    jurisdiction: null,
    workspaceId: null,
    from: '1.0.0',
    to: '1.1.0',
    changelog: '',
    openRequests: 0,
    ...over,
  });

  it('moves pins and activations forward, never back, and leaves an activation that changed since alone', () => {
    const before = set({
      builtInPins: { 'uk-gdpr': '1.0.0', 'eu-gdpr': '1.0.0' },
      activations: [
        { workspaceId: null, jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' },
        { workspaceId: 'north', jurisdiction: 'GB', name: 'other-uk', version: '1.0.0' },
      ],
    });
    const after = movedBy(before, [
      change({}),
      change({ packId: 'eu-gdpr', from: '0.9.0', to: '0.9.5' }),
      change({ source: 'custom', packId: 'acme-uk', jurisdiction: 'GB', to: '1.1.0' }),
      change({ source: 'custom', packId: 'acme-uk', jurisdiction: 'GB', workspaceId: 'north', to: '1.1.0' }),
    ]);
    expect(after.builtInPins).toEqual({ 'uk-gdpr': '1.1.0', 'eu-gdpr': '1.0.0' });
    expect(after.activations).toEqual([
      { workspaceId: null, jurisdiction: 'GB', name: 'acme-uk', version: '1.1.0' },
      { workspaceId: 'north', jurisdiction: 'GB', name: 'other-uk', version: '1.0.0' },
    ]);
  });
});
