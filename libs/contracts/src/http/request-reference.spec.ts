import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { idPrefixOfReference, MAX_QUOTED_REFERENCES, quotedReferences, referenceTagMatches, requestReference, taggedRequestReference, withoutRequestReferences } from './request-reference';

const ID = '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';
const OTHER = '1a2b3c4d-0000-4000-8000-000000000000';
const KEY = 'k'.repeat(32);
const OLD_KEY = 'o'.repeat(32);

describe('request references', () => {
  it('the short reference is the first eight characters of the id in capitals', () => {
    expect(requestReference(ID)).toBe('DSAR-1A2B3C4D');
    expect(requestReference('abc-def')).toBe('DSAR-ABCDEF');
  });

  it('the tagged reference adds 13 characters of Crockford base32, stable for the id and key, different for another id or key', () => {
    const reference = taggedRequestReference(ID, KEY);
    expect(reference).toMatch(/^DSAR-1A2B3C4D-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{13}$/);
    expect(taggedRequestReference(ID, KEY)).toBe(reference);
    expect(taggedRequestReference(ID, Buffer.from(KEY))).toBe(reference);
    expect(taggedRequestReference(ID.toUpperCase(), KEY)).toBe(reference);
    expect(taggedRequestReference(OTHER, KEY)).not.toBe(reference);
    expect(taggedRequestReference(ID, OLD_KEY)).not.toBe(reference);
  });

  it('reads the references a text quotes, short and tagged, in any case, each once', () => {
    const tagged = taggedRequestReference(ID, KEY);
    const tag = tagged.slice(-13);
    expect(quotedReferences(`Re: Ihr Antrag ${tagged.toLowerCase()} (${tagged}) und DSAR-0A0B0C0D.`)).toEqual([{ idPrefix: '1a2b3c4d', tag }, { idPrefix: '0a0b0c0d' }]);
    expect(quotedReferences('Re: [DSAR-1A2B3C4D]')).toEqual([{ idPrefix: '1a2b3c4d' }]);
  });

  it('takes a tag as a person may type it: I and L as 1, O as 0', () => {
    // A key whose tag for the id has a 0 or a 1 in it, to type them as O and l.
    const key = Array.from({ length: 100 }, (_, i) => `${KEY}${i}`).find((k) => /[01]/.test(taggedRequestReference(ID, k).slice(14)))!;
    const tagged = taggedRequestReference(ID, key);
    const typed = tagged.slice(0, 14) + tagged.slice(14).replace(/1/g, 'l').replace(/0/g, 'O').toLowerCase();
    expect(typed.slice(14)).not.toBe(tagged.slice(14).toLowerCase());
    const [quoted] = quotedReferences(`Re: ${typed}`);
    expect(referenceTagMatches(quoted, ID, [key])).toBe(true);
  });

  it('reads nothing from a reference glued to other words, or with a tag of the wrong length', () => {
    for (const text of ['XDSAR-1A2B3C4D', 'DSAR-1A2B3C4DX', 'DSAR-1A2B3C4', 'DSAR-1A2B3C4D-ABC', 'DSAR-1A2B3C4D-7K3QX9M2TR4VBX', 'DSAR-1A2B3C4D-7K3QX9M2TR4V']) {
      expect({ text, found: quotedReferences(text) }).toEqual({ text, found: [] });
    }
  });

  it('reads at most a handful of references from one text', () => {
    const many = Array.from({ length: 50 }, (_, i) => `DSAR-${i.toString(16).padStart(8, '0').toUpperCase()}`).join(' ');
    expect(quotedReferences(many)).toHaveLength(MAX_QUOTED_REFERENCES);
  });

  it('a tag matches its id under the key or an earlier key, and nothing else', () => {
    const [quoted] = quotedReferences(taggedRequestReference(ID, OLD_KEY));
    expect(referenceTagMatches(quoted, ID, [KEY, OLD_KEY])).toBe(true);
    expect(referenceTagMatches(quoted, ID, [KEY])).toBe(false);
    expect(referenceTagMatches(quoted, ID, [])).toBe(false);
    // Another request with the same eight digits: the tag is the id's, not the prefix's.
    expect(referenceTagMatches(quoted, OTHER, [OLD_KEY])).toBe(false);
    expect(referenceTagMatches({ idPrefix: '1a2b3c4d' }, ID, [KEY])).toBe(false);
    expect(referenceTagMatches({ idPrefix: '1a2b3c4d', tag: '0'.repeat(13) }, ID, [KEY])).toBe(false);
    expect(referenceTagMatches({ idPrefix: 'ffffffff', tag: quoted.tag }, ID, [OLD_KEY])).toBe(false);
  });

  it('removes both forms from a text, and reads the short form for the look-up', () => {
    expect(withoutRequestReferences(`Re: ${taggedRequestReference(ID, KEY)} and DSAR-0A0B0C0D done`)).toBe('Re:   and   done');
    expect(idPrefixOfReference(' dsar-1a2b3c4d ')).toBe('1a2b3c4d');
    expect(idPrefixOfReference(taggedRequestReference(ID, KEY))).toBeUndefined();
  });

  it('reads a long hostile text in linear time', () => {
    const hostile = [(n: number) => 'DSAR-'.repeat(n / 5), (n: number) => 'DSAR-1A2B3C4D-'.repeat(n / 14), (n: number) => `${'a'.repeat(n)}DSAR-1A2B3C4D`];
    for (const make of hostile) expectLinearGrowth(make, (text) => [quotedReferences(text), withoutRequestReferences(text)], 250_000);
  });
});
