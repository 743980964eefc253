import { referenceOf } from './reference';

describe("a request's short reference", () => {
  it('is DSAR- and the first eight hex digits of the id, in capitals', () => {
    expect(referenceOf('0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10')).toBe('DSAR-0B9F2F4E');
  });

  it('stays a reference, in capitals, when given one', () => {
    expect(referenceOf('dsar-0b9f2f4e')).toBe('DSAR-0B9F2F4E');
  });

  it('is the text itself for anything else', () => {
    expect(referenceOf('not-an-id')).toBe('not-an-id');
  });
});
