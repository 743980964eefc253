import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { conditionalFileAnswer, entityTagListMatches, entityTagOf, fileConditionsOf } from './file-response';

describe('conditionalFileAnswer', () => {
  const file = { size: 1000, sha256: 'ab'.repeat(32) };
  const etag = entityTagOf(file.sha256);
  const other = entityTagOf('cd'.repeat(32));

  it('answers the whole file without conditions, and the range asked for', () => {
    expect(conditionalFileAnswer(file, {})).toEqual({ status: 200 });
    expect(conditionalFileAnswer(file, { range: 'bytes=0-99' })).toEqual({ status: 206, range: { start: 0, end: 99 } });
    expect(conditionalFileAnswer(file, { range: 'bytes=1000-' })).toEqual({ status: 416 });
    expect(conditionalFileAnswer(file, { range: 'bytes=0-9,20-29' })).toEqual({ status: 200 });
  });

  it('answers 304 when If-None-Match names the tag, weakly or in a list, or is *', () => {
    expect(conditionalFileAnswer(file, { ifNoneMatch: etag })).toEqual({ status: 304 });
    expect(conditionalFileAnswer(file, { ifNoneMatch: `W/${etag}` })).toEqual({ status: 304 });
    expect(conditionalFileAnswer(file, { ifNoneMatch: `${other}, ${etag}` })).toEqual({ status: 304 });
    expect(conditionalFileAnswer(file, { ifNoneMatch: '*' })).toEqual({ status: 304 });
    // Before the range: the client holds the file, so no part of it is sent either.
    expect(conditionalFileAnswer(file, { ifNoneMatch: etag, range: 'bytes=0-9' })).toEqual({ status: 304 });
  });

  it('sends the file when If-None-Match names other tags', () => {
    expect(conditionalFileAnswer(file, { ifNoneMatch: other })).toEqual({ status: 200 });
    expect(conditionalFileAnswer(file, { ifNoneMatch: file.sha256 })).toEqual({ status: 200 });
    expect(conditionalFileAnswer(file, { ifNoneMatch: other, range: 'bytes=10-19' })).toEqual({ status: 206, range: { start: 10, end: 19 } });
  });

  it('serves the range only when If-Range names exactly the current strong tag', () => {
    expect(conditionalFileAnswer(file, { range: 'bytes=10-19', ifRange: etag })).toEqual({ status: 206, range: { start: 10, end: 19 } });
    expect(conditionalFileAnswer(file, { range: 'bytes=10-19', ifRange: ` ${etag} ` })).toEqual({ status: 206, range: { start: 10, end: 19 } });
    // A copy of other bytes, a weak tag or a date (no Last-Modified is sent): the whole file, never a part.
    expect(conditionalFileAnswer(file, { range: 'bytes=10-19', ifRange: other })).toEqual({ status: 200 });
    expect(conditionalFileAnswer(file, { range: 'bytes=10-19', ifRange: `W/${etag}` })).toEqual({ status: 200 });
    expect(conditionalFileAnswer(file, { range: 'bytes=10-19', ifRange: 'Tue, 01 Jun 2026 10:00:00 GMT' })).toEqual({ status: 200 });
    // A stale If-Range never turns into a 416 either: the range is not looked at.
    expect(conditionalFileAnswer(file, { range: 'bytes=5000-', ifRange: other })).toEqual({ status: 200 });
    // If-Range without Range means nothing.
    expect(conditionalFileAnswer(file, { ifRange: other })).toEqual({ status: 200 });
  });

  it('reads the conditions from request headers, the first of a repeated one', () => {
    expect(fileConditionsOf({ range: 'bytes=0-1', 'if-none-match': [etag, other], 'if-range': etag, accept: '*/*' })).toEqual({ range: 'bytes=0-1', ifNoneMatch: etag, ifRange: etag });
    expect(fileConditionsOf({})).toEqual({ range: undefined, ifNoneMatch: undefined, ifRange: undefined });
  });

  it('matches entity-tag lists in linear time, whatever the header holds', () => {
    const hostile = (n: number) => `${'"a",'.repeat(n / 4)}${' '.repeat(n)}x`;
    expect(entityTagListMatches(hostile(16_000), etag)).toBe(false);
    expectLinearGrowth(hostile, (text) => entityTagListMatches(text, etag), 4_000);
  });
});
