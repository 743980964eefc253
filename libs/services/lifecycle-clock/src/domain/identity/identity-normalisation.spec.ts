import { IDENTITY_VALUE_MAX_LENGTH } from '@dsar/contracts';
import { normaliseAccount, normaliseEmail, normaliseIdentity, normalisePhone } from './identity-normalisation';

describe('identity normalisation', () => {
  describe('of an email address', () => {
    it('trims, folds compatibility forms and case, and writes the domain in ASCII', () => {
      expect(normaliseEmail('  Mira.Kowalski@Example.ORG \n')).toBe('mira.kowalski@example.org');
      expect(normaliseEmail('ｍｉｒａ＠ｅｘａｍｐｌｅ．ｏｒｇ')).toBe('mira@example.org');
      expect(normaliseEmail('leser@Bücher.example')).toBe('leser@xn--bcher-kva.example');
      expect(normaliseEmail('leser@xn--bcher-kva.example')).toBe('leser@xn--bcher-kva.example');
      expect(normaliseEmail('Ännchen@example.org')).toBe('ännchen@example.org');
    });

    it('keeps the local part as written: dots and +tags are not dropped', () => {
      expect(normaliseEmail('m.kowalski+orders@example.org')).toBe('m.kowalski+orders@example.org');
      expect(normaliseEmail('mkowalski@example.org')).not.toBe(normaliseEmail('m.kowalski@example.org'));
      expect(normaliseEmail('mkowalski@example.org')).not.toBe(normaliseEmail('mkowalski+news@example.org'));
    });

    it('takes nothing else for an address', () => {
      for (const text of [
        '',
        '   ',
        'mira',
        'mira@',
        '@example.org',
        'mira@example',
        'mira@@example.org',
        'mi@ra@example.org',
        'mira kowalski@example.org',
        'mira@exam ple.org',
        'mira@.org',
        'mira@example.',
        'mira@example..org',
        'mira@[192.0.2.1]',
      ]) {
        expect([text, normaliseEmail(text)]).toEqual([text, null]);
      }
    });

    it('refuses a text over the bound before reading it', () => {
      const local = 'a'.repeat(IDENTITY_VALUE_MAX_LENGTH - '@example.org'.length);
      expect(normaliseEmail(`${local}@example.org`)).toBe(`${local}@example.org`);
      expect(normaliseEmail(`${local}a@example.org`)).toBeNull();
    });
  });

  describe('of a phone number', () => {
    it('writes a number in international form in E.164, whatever its spacing and punctuation', () => {
      expect(normalisePhone('+49 30 9876543')).toBe('+49309876543');
      expect(normalisePhone(' +49 (30) 987-65-43 ', 'EU')).toBe('+49309876543');
      expect(normalisePhone('+４９ ３０ ９８７６５４３')).toBe('+49309876543');
      expect(normalisePhone('+1 303 555 0147', 'DE')).toBe('+13035550147');
    });

    it("reads a national form in the jurisdiction's country, a subdivision's too", () => {
      expect(normalisePhone('030 9876543', 'DE')).toBe('+49309876543');
      expect(normalisePhone('0049 30 9876543', 'de')).toBe('+49309876543');
      expect(normalisePhone('(303) 555-0147', 'US-CO')).toBe('+13035550147');
      expect(normalisePhone('020 7946 0321', 'GB-ENG')).toBe('+442079460321');
    });

    it('reads no national form without a country: EU, an unknown code, or none', () => {
      expect(normalisePhone('030 9876543', 'EU')).toBeNull();
      expect(normalisePhone('030 9876543', 'ZZ')).toBeNull();
      expect(normalisePhone('030 9876543')).toBeNull();
    });

    it('takes no text that is not wholly a number of a possible length', () => {
      expect(normalisePhone('12', 'DE')).toBeNull();
      expect(normalisePhone('+999 9876543')).toBeNull();
      expect(normalisePhone('ring +49 30 9876543 after six', 'DE')).toBeNull();
      expect(normalisePhone('mira@example.org', 'DE')).toBeNull();
      expect(normalisePhone('', 'DE')).toBeNull();
      expect(normalisePhone(`+49 30 9876543${' '.repeat(IDENTITY_VALUE_MAX_LENGTH)}`)).toBeNull();
    });
  });

  describe('of an account id', () => {
    it('keeps it as given apart from surrounding white space', () => {
      expect(normaliseAccount('  CUST-00731\t')).toBe('CUST-00731');
      expect(normaliseAccount('cust-00731')).not.toBe(normaliseAccount('CUST-00731'));
      expect(normaliseAccount('Konto Ä 7')).toBe('Konto Ä 7');
    });

    it('takes 1 to 512 characters', () => {
      expect(normaliseAccount(' \n ')).toBeNull();
      expect(normaliseAccount('')).toBeNull();
      expect(normaliseAccount('7'.repeat(IDENTITY_VALUE_MAX_LENGTH))).toBe('7'.repeat(IDENTITY_VALUE_MAX_LENGTH));
      expect(normaliseAccount('7'.repeat(IDENTITY_VALUE_MAX_LENGTH + 1))).toBeNull();
    });
  });

  it('picks the rules by kind', () => {
    expect(normaliseIdentity('email', ' Mira@Example.org')).toBe('mira@example.org');
    expect(normaliseIdentity('phone', '030 9876543', 'DE')).toBe('+49309876543');
    expect(normaliseIdentity('account', ' Mira@Example.org')).toBe('Mira@Example.org');
    expect(normaliseIdentity('phone', 'Mira@Example.org', 'DE')).toBeNull();
  });

  it('refuses a long text before reading it, and answers hostile text at the bound at once', () => {
    const long = `${'a'.repeat(100_000)}@${'b.'.repeat(50_000)}`;
    const hostile = ['@'.repeat(IDENTITY_VALUE_MAX_LENGTH), `${'a.'.repeat(255)}@`, '+'.repeat(IDENTITY_VALUE_MAX_LENGTH), `+49${' 1'.repeat(254)}`, ' '.repeat(IDENTITY_VALUE_MAX_LENGTH)];
    const started = process.hrtime.bigint();
    for (const kind of ['email', 'phone', 'account'] as const) expect(normaliseIdentity(kind, long, 'DE')).toBeNull();
    for (let i = 0; i < 20; i++) {
      for (const text of hostile) {
        normaliseEmail(text);
        normalisePhone(text, 'DE');
        normaliseAccount(text);
      }
    }
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
  });
});
