import { errorText } from './error-text';
import { maskDestination } from './mask';

describe('maskDestination', () => {
  it.each([
    ['alice@example.org', 'a***@example.org'],
    ['  Bob.Smith+dsar@mail.example.co.uk ', 'B***@mail.example.co.uk'],
    ['élodie@exemple.fr', 'é***@exemple.fr'],
    ['#privacy-ops', '#p***'],
    ['C0123ABCD', 'C0***'],
    ['G01ABCDEF', 'G0***'],
    ['privacy-ops', 'p***'],
    ['+49 30 1234567', '+***'],
    ['', '***'],
  ])('%s → %s', (destination, masked) => {
    expect(maskDestination(destination)).toBe(masked);
  });

  it('never keeps more than the first characters of the part before the domain', () => {
    expect(maskDestination('a@b.example')).toBe('a***@b.example');
    expect(maskDestination('averylongname@example.org')).not.toContain('very');
  });
});

describe('errorText', () => {
  it('scrubs email addresses, bare or in angle brackets, and keeps one line', () => {
    const text = errorText('550 5.1.1 <alice@example.org>: Recipient address rejected\r\n  for bob.smith@mail.example.com');
    expect(text).toBe('550 5.1.1 <***>: Recipient address rejected for ***');
  });

  it('shortens a long text', () => {
    expect(errorText('x'.repeat(1000)).length).toBeLessThanOrEqual(300);
  });
});
