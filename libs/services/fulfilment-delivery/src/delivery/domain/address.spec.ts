import { addressesMatch, knownAddressOf, maskAddress, normalizeAddress } from './address';

describe('delivery address rules', () => {
  it('normalize by trimming, NFC and lower case only', () => {
    expect(normalizeAddress('  Jane.Doe@Example.ORG \n')).toBe('jane.doe@example.org');
    // "é" as e + combining acute (NFD) becomes the one code point (NFC).
    expect(normalizeAddress('Rene\u0301@example.org')).toBe('ren\u00e9@example.org');
    expect(normalizeAddress('JANE+DSAR@example.org')).toBe('jane+dsar@example.org');
  });

  it('match case-insensitively and across Unicode forms', () => {
    expect(addressesMatch('jane@example.org', ' JANE@Example.org ')).toBe(true);
    expect(addressesMatch('ren\u00e9@example.org', 'RENE\u0301@EXAMPLE.ORG')).toBe(true);
  });

  it('fold nothing provider-specific: plus tags and dots make other addresses', () => {
    expect(addressesMatch('jane@example.org', 'jane+dsar@example.org')).toBe(false);
    expect(addressesMatch('jane.doe@gmail.com', 'janedoe@gmail.com')).toBe(false);
    expect(addressesMatch('jane@example.org', 'jane@example.org.')).toBe(false);
    expect(addressesMatch('jane@example.org', 'jane@exampIe.org')).toBe(false);
  });

  it("know the requestor's email first, else the intake contact when it is an email", () => {
    const source = { channel: 'email' as const, rawText: 'x', receivedAt: '2026-06-01T00:00:00Z' };
    expect(knownAddressOf({ requestor: { type: 'subject', email: 'jane@example.org' }, intakeSource: { ...source, contact: 'other@example.org' } })).toBe('jane@example.org');
    expect(knownAddressOf({ requestor: { type: 'subject' }, intakeSource: { ...source, contact: ' contact@example.org ' } })).toBe('contact@example.org');
    expect(knownAddressOf({ requestor: { type: 'subject' }, intakeSource: { ...source, contact: '+49 30 1234567' } })).toBeNull();
    expect(knownAddressOf({ requestor: { type: 'subject' }, intakeSource: { ...source, contact: '@jane on chat' } })).toBeNull();
    expect(knownAddressOf({ requestor: { type: 'subject' }, intakeSource: source })).toBeNull();
  });

  it('mask an address to its first character and domain', () => {
    expect(maskAddress('Jane.Doe@Example.org')).toBe('j***@example.org');
    expect(maskAddress('\u00e9lise@example.org')).toBe('\u00e9***@example.org');
    expect(maskAddress('a@b.example')).toBe('a***@b.example');
  });
});
