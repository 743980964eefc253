import { currentPolicyPacks, type PolicyPack, policyListQuery, policyPackVersion } from '@dsar/contracts';
import { ManualClock } from '@dsar/platform/clock';
import type { TenantScope } from '@dsar/platform/http';
import { summaryOf } from '../api/policy-views';
import { BuiltInPackSource } from './built-in-pack-source';
import type { PackSet, PackSets } from './pack-sets';
import { PolicyCatalog } from './policy-catalog';
import type { PolicyPackSource } from './policy-pack-source';

const scope: TenantScope = { tenantId: 'tenant-a' };
const gdpr = () => currentPolicyPacks().find((p) => p.packId === 'eu-gdpr')!;

/** Pack sets as policy-registry would read them: none stored, unless given. */
function packSets(sets: Record<string, Partial<PackSet>> = {}): PackSets {
  return { read: async (tenantId: string) => ({ tenantId, revision: 0, builtInPins: {}, activations: [], ...sets[tenantId] }) } as unknown as PackSets;
}

const builtInSource = (now = '2026-11-27T12:00:00Z', sets?: Record<string, Partial<PackSet>>) => new BuiltInPackSource(packSets(sets), new ManualClock(new Date(now)));

/** A custom-pack source: one activated pack per tenant. */
class FakeCustomSource implements PolicyPackSource {
  readonly kind = 'custom' as const;
  constructor(private readonly byTenant: Record<string, PolicyPack[]>) {}
  async current(s: TenantScope) {
    return (this.byTenant[s.tenantId] ?? []).map((pack) => ({ pack, activatedFor: { jurisdiction: pack.jurisdictions[0].code, workspaceId: null } }));
  }
  async version(s: TenantScope, packId: string, version: string) {
    return (this.byTenant[s.tenantId] ?? []).find((p) => p.packId === packId && p.version === version);
  }
}

describe('PolicyCatalog', () => {
  const builtIn = new PolicyCatalog([builtInSource()]);

  it('lists every built-in pack at the version in force today, sorted by pack id', async () => {
    const listed = await builtIn.list(scope);
    expect(listed.map((c) => c.pack)).toEqual(currentPolicyPacks());
    expect(listed.map((c) => c.pack.packId)).toEqual([...listed.map((c) => c.pack.packId)].sort());
    expect(listed.every((c) => c.source === 'built_in' && c.activatedFor === null)).toBe(true);
  });

  it('shows the UK pack in force on the day: the earlier rules before 5 February 2026, and under a tenant pinned to 1.0.0 that version', async () => {
    const uk = async (catalog: PolicyCatalog, tenantId = 'tenant-a') => (await catalog.list({ tenantId }, { packId: 'uk-gdpr' }))[0].pack.version;
    expect(await uk(new PolicyCatalog([builtInSource('2026-02-04T12:00:00Z')]))).toBe('1.1.0');
    expect(await uk(new PolicyCatalog([builtInSource('2026-02-05T12:00:00Z')]))).toBe('1.0.0');
    const pinned = new PolicyCatalog([builtInSource('2026-02-04T12:00:00Z', { 'tenant-a': { revision: 3, builtInPins: { 'uk-gdpr': '1.0.0' } } })]);
    expect(await uk(pinned)).toBe('1.0.0');
    expect(await uk(pinned, 'tenant-b')).toBe('1.1.0');
  });

  it('filters by any covered jurisdiction code, case-insensitively, and by pack id', async () => {
    const byCode = async (jurisdiction: string) => (await builtIn.list(scope, policyListQuery.parse({ jurisdiction }))).map((c) => c.pack.packId);
    expect(await byCode('de')).toEqual(['eu-gdpr']);
    expect(await byCode('us-ca')).toEqual(['us-ca-ccpa']);
    expect(await byCode('XX')).toEqual([]);
    expect(await builtIn.list(scope, { packId: 'us-ca-ccpa', jurisdiction: 'DE' })).toEqual([]);
  });

  it('finds a pack at the version in force or a published one, and nothing else', async () => {
    expect((await builtIn.find(scope, 'eu-gdpr'))?.pack).toBe(gdpr());
    expect((await builtIn.find(scope, 'uk-gdpr', '1.1.0'))?.pack).toBe(policyPackVersion('uk-gdpr', '1.1.0'));
    expect(await builtIn.find(scope, 'eu-gdpr', '999.0.0')).toBeUndefined();
    expect(await builtIn.find(scope, 'no-such-pack')).toBeUndefined();
  });

  it('lists the custom packs activated for the tenant with their activation, only for that tenant', async () => {
    const acme: PolicyPack = { ...gdpr(), packId: 'acme-internal', name: 'Acme internal', version: '2.0.0' };
    const catalog = new PolicyCatalog([builtInSource(), new FakeCustomSource({ 'tenant-a': [acme] })]);
    const forA = await catalog.list(scope);
    expect(forA.find((c) => c.pack.packId === 'acme-internal')).toEqual({ pack: acme, source: 'custom', activatedFor: { jurisdiction: 'EU', workspaceId: null } });
    expect((await catalog.list({ tenantId: 'tenant-b' })).map((c) => c.pack.packId)).not.toContain('acme-internal');
    expect(await catalog.find(scope, 'acme-internal', '2.0.0')).toEqual({ pack: acme, source: 'custom' });
    expect(await catalog.find({ tenantId: 'tenant-b' }, 'acme-internal')).toBeUndefined();
  });
});

describe('summaryOf', () => {
  it('gives the spec fields, every jurisdiction code, the source and the activation', () => {
    const pack = gdpr();
    expect(summaryOf({ pack, source: 'built_in', activatedFor: null })).toEqual({
      packId: 'eu-gdpr',
      name: pack.name,
      jurisdiction: 'EU',
      jurisdictions: pack.jurisdictions.map((j) => j.code),
      version: pack.version,
      publishedAt: pack.publishedAt,
      effectiveFrom: pack.effectiveFrom,
      source: 'built_in',
      activatedFor: null,
    });
    expect(summaryOf({ pack, source: 'custom', activatedFor: { jurisdiction: 'FR', workspaceId: 'north' } }).jurisdiction).toBe('FR');
  });
});
