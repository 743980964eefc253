import { isDeliveryLink, linkFromFragment } from './fragment';

const LINK_ID = '5b0e6f0c-2f4a-4d8e-9a61-7c3d2b1a0f9e';
const CREDENTIAL = 'Qm9va3NoZWxmLWxhbXAtb3JjaGFyZC1yaXZlci1zdG8';

describe("the link in the page's address", () => {
  it('reads the id and the credential, with or without the #, the id in lower case', () => {
    expect(CREDENTIAL).toHaveLength(43);
    expect(linkFromFragment(`#${LINK_ID}.${CREDENTIAL}`)).toEqual({ linkId: LINK_ID, credential: CREDENTIAL });
    expect(linkFromFragment(`${LINK_ID.toUpperCase()}.${CREDENTIAL}`)).toEqual({ linkId: LINK_ID, credential: CREDENTIAL });
    expect(linkFromFragment(`#${LINK_ID}._-${CREDENTIAL.slice(2)}`)?.credential).toBe(`_-${CREDENTIAL.slice(2)}`);
  });

  it('refuses a link cut short, grown, or of another form', () => {
    for (const hash of [
      '',
      '#',
      `#${LINK_ID}`,
      `#${LINK_ID}.`,
      `#.${CREDENTIAL}`,
      `#${LINK_ID}.${CREDENTIAL.slice(0, 42)}`,
      `#${LINK_ID}.${CREDENTIAL}A`,
      `#${LINK_ID}.${CREDENTIAL}.`,
      `#${LINK_ID.slice(1)}.${CREDENTIAL}`,
      `#${LINK_ID.replace(/-/g, '')}.${CREDENTIAL}`,
      `#${LINK_ID}.${CREDENTIAL.slice(0, 42)}=`,
      `#${LINK_ID}.${CREDENTIAL.slice(0, 42)}+`,
      `#${LINK_ID}.${CREDENTIAL.slice(0, 42)}/`,
      `#${LINK_ID}%2E${CREDENTIAL}`,
      `# ${LINK_ID}.${CREDENTIAL}`,
      `#${LINK_ID}.${CREDENTIAL}\n`,
    ]) {
      expect({ hash, link: linkFromFragment(hash) }).toEqual({ hash, link: undefined });
    }
  });

  it('reads a long fragment in time proportional to its length', () => {
    const long = `#${'a'.repeat(200_000)}.${'b'.repeat(200_000)}`;
    const t0 = performance.now();
    expect(linkFromFragment(long)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('checks a kept link as it checks one in the address', () => {
    expect(isDeliveryLink({ linkId: LINK_ID, credential: CREDENTIAL })).toBe(true);
    expect(isDeliveryLink({ linkId: 'x', credential: CREDENTIAL })).toBe(false);
    expect(isDeliveryLink({ linkId: LINK_ID, credential: '' })).toBe(false);
  });
});
