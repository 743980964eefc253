import { currentPolicyPacks, type PolicyPack, policyListQuery } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { summaryOf } from '../api/policy-views';
import { BuiltInPackSource } from '../infrastructure/built-in-pack-source';
import { PolicyCatalog } from './policy-catalog';
import type { PolicyPackSource } from './policy-pack-source';

const scope: TenantScope = { tenantId: 'tenant-a' };
const gdpr = () => currentPolicyPacks().find((p) => p.packId === 'eu-gdpr')!;

/** A stand-in for the custom-pack source to come: one pack per tenant. */
class FakeCustomSource implements PolicyPackSource {
  readonly kind = 'custom' as const;
  constructor(private readonly byTenant: Record<string, PolicyPack[]>) {}
  async current(s: TenantScope) {
    return this.byTenant[s.tenantId] ?? [];
  }
  async version(s: TenantScope, packId: string, version: string) {
    return (this.byTenant[s.tenantId] ?? []).find((p) => p.packId === packId && p.version === version);
  }
}

describe('PolicyCatalog', () => {
  const builtIn = new PolicyCatalog([new BuiltInPackSource()]);

  it('lists the current version of every built-in pack, sorted by pack id', async () => {
    const listed = await builtIn.list(scope);
    expect(listed.map((c) => c.pack)).toEqual(currentPolicyPacks());
    expect(listed.map((c) => c.pack.packId)).toEqual([...listed.map((c) => c.pack.packId)].sort());
    expect(listed.every((c) => c.source === 'built_in')).toBe(true);
    expect(listed.map((c) => c.pack.packId)).toEqual(expect.arrayContaining(['eu-gdpr', 'us-ca-ccpa']));
  });

  it('filters by any covered jurisdiction code, case-insensitively, and by pack id', async () => {
    const byCode = async (jurisdiction: string) => (await builtIn.list(scope, policyListQuery.parse({ jurisdiction }))).map((c) => c.pack.packId);
    expect(await byCode('de')).toEqual(['eu-gdpr']);
    expect(await byCode('EU')).toEqual(['eu-gdpr']);
    expect(await byCode('us-ca')).toEqual(['us-ca-ccpa']);
    expect(await byCode('XX')).toEqual([]);
    expect((await builtIn.list(scope, { packId: 'us-ca-ccpa' })).map((c) => c.pack.packId)).toEqual(['us-ca-ccpa']);
    expect(await builtIn.list(scope, { packId: 'us-ca-ccpa', jurisdiction: 'DE' })).toEqual([]);
  });

  it('finds a pack at its current version or a published one, and nothing else', async () => {
    expect((await builtIn.find(scope, 'eu-gdpr'))?.pack).toBe(gdpr());
    expect((await builtIn.find(scope, 'eu-gdpr', gdpr().version))?.pack).toBe(gdpr());
    expect(await builtIn.find(scope, 'eu-gdpr', '999.0.0')).toBeUndefined();
    expect(await builtIn.find(scope, 'no-such-pack')).toBeUndefined();
  });

  it('asks a second source for what the first does not have; the first source owns a pack id', async () => {
    const acme: PolicyPack = { ...gdpr(), packId: 'acme-internal', name: 'Acme internal', version: '2.0.0' };
    const shadow: PolicyPack = { ...gdpr(), name: 'A custom pack may not replace a built-in one', version: '9.0.0' };
    const catalog = new PolicyCatalog([new BuiltInPackSource(), new FakeCustomSource({ 'tenant-a': [acme, shadow] })]);

    const forA = await catalog.list(scope);
    expect(forA.find((c) => c.pack.packId === 'acme-internal')).toEqual({ pack: acme, source: 'custom' });
    expect(forA.find((c) => c.pack.packId === 'eu-gdpr')).toEqual({ pack: gdpr(), source: 'built_in' });
    expect((await catalog.list({ tenantId: 'tenant-b' })).map((c) => c.pack.packId)).not.toContain('acme-internal');
    expect(await catalog.find(scope, 'acme-internal', '2.0.0')).toEqual({ pack: acme, source: 'custom' });
    expect(await catalog.find({ tenantId: 'tenant-b' }, 'acme-internal')).toBeUndefined();
  });
});

describe('summaryOf', () => {
  it('gives the spec fields, every jurisdiction code and the source', () => {
    const pack = gdpr();
    expect(summaryOf({ pack, source: 'built_in' })).toEqual({
      packId: 'eu-gdpr',
      name: pack.name,
      jurisdiction: 'EU',
      jurisdictions: pack.jurisdictions.map((j) => j.code),
      version: pack.version,
      publishedAt: pack.publishedAt,
      effectiveFrom: pack.effectiveFrom,
      source: 'built_in',
    });
  });
});
