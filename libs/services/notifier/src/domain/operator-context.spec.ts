import { maskDestination, maskText, operatorContext } from './operator-context';

describe('operator context', () => {
  it('keeps references, codes and dates and drops what is personal', () => {
    const context = operatorContext({
      requestId: 'r1',
      reference: 'DSAR-R1',
      recipientName: 'Erika Mustermann',
      message: 'a note for Erika',
      requestType: 'access',
      extension: { additionalDays: 45, additionalMonths: null, reason: 'why, for Erika', previousDueAt: new Date(0), dueAt: new Date(1) },
    });
    expect(context.recipientName).toBeUndefined();
    expect(context.message).toBeUndefined();
    expect(context.extension?.reason).toBeNull();
    expect(context).toMatchObject({ requestId: 'r1', reference: 'DSAR-R1', requestType: 'access', extension: { additionalDays: 45 } });
    expect(JSON.stringify(context)).not.toContain('Erika');
  });

  it('keeps of a duplicate mark the references, the kinds of identity that matched and the counts, never an identity', () => {
    const markedAt = new Date('2026-05-04T08:00:00Z');
    const context = operatorContext({
      requestId: 'r2',
      reference: 'DSAR-R2',
      duplicate: { of: 'r1', ofReference: 'DSAR-R1', matchedKinds: ['account', 'ravi.k@example.net', 'phone'], windowDays: 14, sameIdentityRequests: 2, markedAt },
    });
    expect(context.duplicate).toEqual({ of: 'r1', ofReference: 'DSAR-R1', matchedKinds: ['account', 'phone'], windowDays: 14, sameIdentityRequests: 2, markedAt });
    expect(JSON.stringify(context)).not.toContain('ravi');
  });

  it('keeps of a delivery its channel, level and expiry, never its link or its code', () => {
    const expiresAt = new Date('2026-05-05T08:00:00Z');
    const context = operatorContext({
      requestId: 'r3',
      reference: 'DSAR-R3',
      delivery: { channel: 'email', level: 'token', expiresAt, link: 'https://dsar.example.org/portal/#link.credential', code: '40719385' },
    });
    expect(context.delivery).toEqual({ channel: 'email', level: 'token', expiresAt });
  });

  it('masks destinations enough to tell them apart, not to use them', () => {
    expect(maskDestination('jane.doe@example.com')).toBe('j***@e***.com');
    expect(maskDestination('+49 170 1234567')).toBe('***567');
    expect(maskDestination('https://hooks.slack.com/services/T000/B000/SECRET')).toBe('https://hooks.slack.com/***');
    expect(maskDestination('#privacy-ops')).toBe('#privacy-ops');
    expect(maskDestination(undefined)).toBe('');
  });

  it('masks addresses and URLs inside error texts and caps their length', () => {
    expect(maskText('550 <jane@example.org>: no such user')).toBe('550 <j***@e***.org>: no such user');
    expect(maskText('POST https://hooks.example.com/abc/SECRET failed')).toBe('POST https://hooks.example.com/*** failed');
    expect(maskText('x'.repeat(600))).toHaveLength(501);
  });
});
