import { builtInVersionsOf, currentPolicyPacks, newestReleases, type PolicyPack, versionInForce } from './jurisdictions';

const v = (version: string, effectiveFrom: string) => ({ packId: 'p', version, effectiveFrom }) as PolicyPack;

describe('versionInForce', () => {
  const versions = [v('1.0.0', '2026-02-05'), v('1.1.0', '2021-01-01'), v('1.2.0', '2026-02-05')];

  it('takes the version whose effectiveFrom is the latest on or before the day; a later release of the same text wins', () => {
    expect(versionInForce(versions, '2026-02-04')).toEqual({ pack: versions[1], basis: 'in_force' });
    expect(versionInForce(versions, '2026-02-05')).toEqual({ pack: versions[2], basis: 'in_force' });
  });

  it('leaves out releases above the ceiling', () => {
    expect(versionInForce(versions, '2026-03-01', '1.1.0')?.pack).toBe(versions[0]);
    expect(versionInForce(versions, '2026-03-01', '1.0.0')?.pack).toBe(versions[0]);
  });

  it('before every version took effect, the earliest applies; nothing under the ceiling is undefined', () => {
    expect(versionInForce(versions, '2020-06-01')).toEqual({ pack: versions[1], basis: 'earliest' });
    expect(versionInForce(versions, '2020-06-01', '1.0.0')).toEqual({ pack: versions[0], basis: 'earliest' });
    expect(versionInForce(versions, '2026-03-01', '0.1.0')).toBeUndefined();
  });
});

describe('current versions and newest releases', () => {
  it('the current UK pack is the newest text of the law (1.0.0, from 5 February 2026); the newest release is 1.1.0', () => {
    expect(currentPolicyPacks().find((p) => p.packId === 'uk-gdpr')?.version).toBe('1.0.0');
    expect(newestReleases().find((p) => p.packId === 'uk-gdpr')?.version).toBe('1.1.0');
    expect(builtInVersionsOf('uk-gdpr').map((p) => p.version)).toEqual(['1.0.0', '1.1.0']);
  });
});
