import { normalizeMediaType, sniffMediaType } from './evidence-type';

describe('evidence media types', () => {
  it('recognizes the allow-list from first bytes', () => {
    expect(sniffMediaType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffMediaType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMediaType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(sniffMediaType(Buffer.concat([Buffer.alloc(4), Buffer.from('ftypheic')]))).toBe('image/heic');
  });

  it('leaves anything else unknown', () => {
    expect(sniffMediaType(Buffer.from('#!/bin/sh\n'))).toBeUndefined();
    expect(sniffMediaType(Buffer.alloc(0))).toBeUndefined();
  });

  it('normalizes a declared type and refuses what is not one', () => {
    expect(normalizeMediaType('Image/JPEG; charset=binary')).toBe('image/jpeg');
    expect(normalizeMediaType('jpeg')).toBeUndefined();
    expect(normalizeMediaType('image/jpeg\r\nx: y')).toBeUndefined();
  });
});
