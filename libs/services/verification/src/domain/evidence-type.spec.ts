import { DEFAULT_EVIDENCE_CONTENT_TYPES } from '../verification-settings';
import { contradictsDeclaredType, normalizeMediaType, sniffMediaType } from './evidence-type';

/** The first bytes of a file of each type of the default allow-list. */
const HEADS: Readonly<Record<(typeof DEFAULT_EVIDENCE_CONTENT_TYPES)[number], Buffer>> = {
  'application/pdf': Buffer.from('%PDF-1.7\n'),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]),
  'image/heic': Buffer.concat([Buffer.alloc(4), Buffer.from('ftypheic')]),
  'image/tiff': Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08]),
};

describe('evidence media types', () => {
  it('recognizes every type of the allow-list from its first bytes', () => {
    for (const [type, head] of Object.entries(HEADS)) expect([type, sniffMediaType(head)]).toEqual([type, type]);
    expect(sniffMediaType(Buffer.from([0x4d, 0x4d, 0x00, 0x2a]))).toBe('image/tiff');
    expect(Object.keys(HEADS).sort()).toEqual([...DEFAULT_EVIDENCE_CONTENT_TYPES].sort());
  });

  it('leaves anything else unknown', () => {
    expect(sniffMediaType(Buffer.from('#!/bin/sh\n'))).toBeUndefined();
    expect(sniffMediaType(Buffer.alloc(0))).toBeUndefined();
  });

  it('bytes of another type, or of none, contradict each declared type of the allow-list', () => {
    const garbage = Buffer.from('MZ\x90\x00 not a document');
    for (const [declared, own] of Object.entries(HEADS)) {
      expect([declared, contradictsDeclaredType(declared, own)]).toEqual([declared, false]);
      expect([declared, contradictsDeclaredType(declared, garbage)]).toEqual([declared, true]);
      expect([declared, contradictsDeclaredType(declared, own.subarray(0, 2))]).toEqual([declared, true]);
      for (const [other, head] of Object.entries(HEADS)) if (other !== declared) expect([declared, other, contradictsDeclaredType(declared, head)]).toEqual([declared, other, true]);
    }
  });

  it("a type without a known signature is contradicted only by another type's signature", () => {
    expect(contradictsDeclaredType('text/plain', Buffer.from('hello'))).toBe(false);
    expect(contradictsDeclaredType('text/plain', HEADS['application/pdf'])).toBe(true);
  });

  it('normalizes a declared type and refuses what is not one', () => {
    expect(normalizeMediaType('Image/JPEG; charset=binary')).toBe('image/jpeg');
    expect(normalizeMediaType('jpeg')).toBeUndefined();
    expect(normalizeMediaType('image/jpeg\r\nx: y')).toBeUndefined();
  });
});
