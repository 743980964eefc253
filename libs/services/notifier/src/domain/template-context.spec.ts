import { requestReference } from './template-context';

describe('requestReference', () => {
  it('is the first eight characters of the id in capitals', () => {
    expect(requestReference('1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d')).toBe('DSAR-1A2B3C4D');
    expect(requestReference('abc-def')).toBe('DSAR-ABCDEF');
  });
});
