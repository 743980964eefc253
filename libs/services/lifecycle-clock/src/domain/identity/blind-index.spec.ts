import { IdentityBlindIndex } from './blind-index';
import { normaliseAccount, normaliseEmail, normalisePhone } from './identity-normalisation';

const CURRENT = 'fixture key for the identity index, v1';
const EARLIER = 'fixture key for the identity index, v2';

describe('the identity blind index', () => {
  const index = new IdentityBlindIndex([CURRENT]);

  it('keeps the derivation it documents: the key id and digest of a known key do not change', () => {
    expect(index.currentKeyId).toBe('10-tzsSjlrIk');
    expect(index.keyIds).toEqual(['10-tzsSjlrIk']);
    expect(index.digest('tenant-north', 'email', 'mira@example.org').toString('hex')).toBe('7ba979cc5de429b1619aa8937d8b16d4fd690a00c461cedd92a5d8b8f2572f51');
    expect(new IdentityBlindIndex([CURRENT]).currentKeyId).toBe(index.currentKeyId);
  });

  it('gives two spellings of one identity the same digest once normalised', () => {
    const email = (text: string) => index.digest('tenant-north', 'email', normaliseEmail(text)!);
    expect(email(' Mira@EXAMPLE.org')).toEqual(email('mira@example.org'));
    expect(email('leser@bücher.example')).toEqual(email('Leser@xn--bcher-kva.example'));
    const phone = (text: string, jurisdiction: string) => index.digest('tenant-north', 'phone', normalisePhone(text, jurisdiction)!);
    expect(phone('030 9876543', 'DE')).toEqual(phone('+49 30 987 65 43', 'EU'));
    expect(email('mira@example.org')).not.toEqual(email('mira2@example.org'));
  });

  it('gives unrelated digests in another tenant and for another kind', () => {
    const value = normaliseAccount('mira@example.org')!;
    const digest = index.digest('tenant-north', 'email', value);
    expect(digest).toHaveLength(32);
    expect(index.digest('tenant-south', 'email', value)).not.toEqual(digest);
    expect(index.digest('tenant-north', 'account', value)).not.toEqual(digest);
    expect(index.digest('tenant-north', 'phone', value)).not.toEqual(digest);
    // The NUL keeps tenant and value apart: moving a character from one to the other changes the digest.
    expect(index.digest('tenant-nort', 'email', `h${value}`)).not.toEqual(digest);
  });

  it('writes under the current key and searches under every key while a rotation runs', () => {
    const rotating = new IdentityBlindIndex([EARLIER, CURRENT]);
    expect(rotating.keyIds).toEqual(['4x_uqchirjWk', '10-tzsSjlrIk']);
    expect(rotating.currentKeyId).toBe('4x_uqchirjWk');
    const digests = rotating.digestsUnderEveryKey('tenant-north', 'email', 'mira@example.org');
    expect(digests.map((d) => [d.keyId, d.digest.toString('hex')])).toEqual([
      ['4x_uqchirjWk', 'd877c9774b447e3b0c3d3a107685b89e24f0a715c5f466ae4ff92f595b962429'],
      ['10-tzsSjlrIk', '7ba979cc5de429b1619aa8937d8b16d4fd690a00c461cedd92a5d8b8f2572f51'],
    ]);
    expect(rotating.digest('tenant-north', 'email', 'mira@example.org')).toEqual(digests[0].digest);
  });

  it('counts a key listed twice once, and refuses to work without a key', () => {
    expect(new IdentityBlindIndex([CURRENT, EARLIER, CURRENT]).keyIds).toEqual(['10-tzsSjlrIk', '4x_uqchirjWk']);
    expect(() => new IdentityBlindIndex([])).toThrow(/needs a key: set IDENTITY_INDEX_KEY/);
  });
});
