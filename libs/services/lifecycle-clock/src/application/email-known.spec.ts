import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { emailKnownOf } from './request-lifecycle';

type Row = Parameters<typeof emailKnownOf>[0];
const row = (requestor: Row['requestor'], contact?: string): Row =>
  ({ requestor, intakeSource: { channel: 'email', rawText: 'x', receivedAt: '2026-01-01T00:00:00Z', ...(contact ? { contact } : {}) } }) as Row;

describe('emailKnownOf: whether the notifier has an address for the data subject', () => {
  it("takes the requestor's email, else an intake contact that is a bare email address", () => {
    expect(emailKnownOf(row({ type: 'subject', email: 'jana@example.org' }))).toBe(true);
    expect(emailKnownOf(row({ type: 'subject' }, ' jana@example.org '))).toBe(true);
    expect(emailKnownOf(row(null, 'a@b.co'))).toBe(true);
  });

  it('knows none for a chat user, a phone number, a display-name form, or an address without a dot in its domain', () => {
    for (const contact of ['U024BE7LH', 'slack://user?team=T1&id=U2', '+49 170 1234567', 'Jana <jana@example.org>', 'jana@localhost', 'jana@.org', 'jana@example.', 'a@b@c.org', '@example.org']) {
      expect({ contact, known: emailKnownOf(row({ type: 'subject', name: 'Jana' }, contact)) }).toEqual({ contact, known: false });
    }
    expect(emailKnownOf(row(null))).toBe(false);
  });

  it('answers a long contact at once (a linear check)', () => {
    const long = (n: number) => row(null, `${'a'.repeat(n)}@${'b'.repeat(n)}`);
    expect(emailKnownOf(long(50_000))).toBe(false);
    expectLinearGrowth(long, emailKnownOf, 12_500);
  });
});
