import { maskAccount, maskEmail, maskName, maskPhone } from './identity-mask';

describe('masking identities', () => {
  it('shows the first letter of the mailbox and the domain of an email address', () => {
    expect(maskEmail('jane@example.org')).toBe('j***@example.org');
    expect(maskEmail('j@example.org')).toBe('j***@example.org');
    expect(maskEmail('"odd@name"@example.org')).toBe('"***@example.org');
  });

  it('masks a text that is no email address as an account id', () => {
    expect(maskEmail('not-an-address')).toBe('no***ss');
    expect(maskEmail('@example.org')).toBe('@e***rg');
  });

  it('keeps the country code, the next digit and the last three digits of a phone number, separators in place', () => {
    expect(maskPhone('+44 7700 900123')).toBe('+44 7*** ***123');
    expect(maskPhone('+1 415-555-0132')).toBe('+1 4**-***-*132');
    expect(maskPhone('+4915112345678')).toBe('+491*******678');
  });

  it('keeps the first and the last three digits of a national number', () => {
    expect(maskPhone('030 1234567')).toBe('0** ****567');
  });

  it('shows only the last two digits of a short number, and nothing of one without digits', () => {
    expect(maskPhone('+44 123')).toBe('+** *23');
    expect(maskPhone('112')).toBe('*12');
    expect(maskPhone('unknown')).toBe('***');
  });

  it('keeps two characters at each end of an account id, none of a short one', () => {
    expect(maskAccount('ac12345689')).toBe('ac***89');
    expect(maskAccount('abcde')).toBe('***');
  });

  it('keeps the initial of each word of a name', () => {
    expect(maskName('Jane Roe')).toBe('J*** R***');
    expect(maskName('  Émile   Zola ')).toBe('É*** Z***');
    expect(maskName('')).toBe('***');
  });

  it('takes characters outside the basic plane whole', () => {
    expect(maskEmail('😀x@example.org')).toBe('😀***@example.org');
  });
});
