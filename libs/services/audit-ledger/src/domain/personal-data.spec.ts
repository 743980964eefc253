import { withPersonalDataHashed } from './personal-data';

describe('personal data in the chain', () => {
  const salt = Buffer.from('000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f', 'hex');

  it('keeps only an HMAC-SHA256 of each personal field under the request salt', () => {
    const payload = { justification: 'Überlastung', reason: null, additionalDays: 30 };
    const chained = withPersonalDataHashed(payload, ['justification'], salt);
    expect(chained).toEqual({
      justification: 'hmac-sha256:536f08d8945f3187aee3fcca7d303f47a40081629432ffb5a7569b19145b4bad',
      reason: null,
      additionalDays: 30,
    });
    expect(payload.justification).toBe('Überlastung');
  });
});
