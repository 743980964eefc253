import type { RequestDetail } from '@dsar/contracts';
import { comparableContact, isKnownSender, knownContactsOf } from './reply-sender';

type Known = Pick<RequestDetail, 'requestor' | 'intakeSource'>;
const request = (contact: string | undefined, email?: string): Known => ({
  requestor: { type: 'subject', ...(email ? { email } : {}) },
  intakeSource: { channel: 'email', rawText: 'x', receivedAt: '2026-03-01T09:00:00.000Z', ...(contact !== undefined ? { contact } : {}) },
});

describe('the sender of a reply, against the contacts the request knows', () => {
  it("knows the requestor's email and an intake contact that is an address or a Slack user, nothing else", () => {
    expect(knownContactsOf(request(' Jana@Example.org ', 'agent@law.example'))).toEqual(new Set(['jana@example.org', 'agent@law.example']));
    expect(knownContactsOf(request('slack://user?team=T0TEAM&id=U0JANA'))).toEqual(new Set(['slack://user?team=t0team&id=u0jana']));
    expect(knownContactsOf(request('+49 30 1234567, or jana@example.org'))).toEqual(new Set());
    expect(knownContactsOf(request(undefined))).toEqual(new Set());
  });

  it('compares addresses trimmed, without a display name or mailto:, in any case, the local part included', () => {
    const known = request('jana.schmidt@example.org');
    for (const sender of ['jana.schmidt@example.org', 'JANA.Schmidt@EXAMPLE.ORG', 'Jana Schmidt <Jana.Schmidt@example.org>', ' mailto:jana.schmidt@example.org ']) {
      expect({ sender, known: isKnownSender(known, sender) }).toEqual({ sender, known: true });
    }
  });

  it('does not fold sub-addresses, dots or look-alike domains, and knows no sender without an address', () => {
    const known = request('jana.schmidt@example.org');
    for (const sender of ['jana.schmidt+dsar@example.org', 'janaschmidt@example.org', 'jana.schmidt@example.org.evil.example', 'jana.schmidt@examp1e.org', 'Jana Schmidt', '']) {
      expect({ sender, known: isKnownSender(known, sender) }).toEqual({ sender, known: false });
    }
    expect(isKnownSender(known, undefined)).toBe(false);
    expect(isKnownSender(request(undefined), 'jana.schmidt@example.org')).toBe(false);
  });

  it('compares a Slack user by team and user id', () => {
    const known = request('slack://user?team=T0TEAM&id=U0JANA');
    expect(isKnownSender(known, 'slack://user?team=T0TEAM&id=U0JANA')).toBe(true);
    expect(isKnownSender(known, 'slack://user?team=T0TEAM&id=U0TOM')).toBe(false);
    expect(isKnownSender(known, 'slack://user?team=T0OTHER&id=U0JANA')).toBe(false);
  });

  it('composes Unicode the same way on both sides', () => {
    expect(comparableContact('jose\u0301@example.org')).toBe(comparableContact('jos\u00e9@example.org'));
  });
});
