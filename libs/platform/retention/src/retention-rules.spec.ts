import { collectDue } from './due-groups';
import type { RetentionGroup } from './retention-purger';
import { blockOf, cutoffOf } from './retention-rules';
import { startOf } from './request-closures';

const DAY = 86_400_000;
const now = new Date('2026-11-27T12:00:00Z');

describe('cutoffOf', () => {
  it('is maxDays before now', () => {
    expect(cutoffOf({ minDays: 30, maxDays: 365 }, now)).toEqual(new Date(now.getTime() - 365 * DAY));
  });

  it('never less than minDays before now', () => {
    expect(cutoffOf({ minDays: 90, maxDays: 10 }, now)).toEqual(new Date(now.getTime() - 90 * DAY));
  });

  it('0 days: everything up to now is due', () => {
    expect(cutoffOf({ minDays: 0, maxDays: 0 }, now)).toEqual(now);
  });
});

describe('blockOf', () => {
  it('a legal hold wins over everything', () => {
    expect(blockOf({ purgeEnabled: true, legalHoldEnabled: true })).toBe('legal_hold');
    expect(blockOf({ purgeEnabled: false, legalHoldEnabled: true })).toBe('legal_hold');
  });

  it('purging off, else nothing blocks', () => {
    expect(blockOf({ purgeEnabled: false, legalHoldEnabled: false })).toBe('purge_disabled');
    expect(blockOf({ purgeEnabled: true, legalHoldEnabled: false })).toBeNull();
  });
});

describe('startOf', () => {
  const newest = new Date('2026-01-10T00:00:00Z');

  it('the later of the newest record and the closure', () => {
    expect(startOf(newest, { open: false, closedAt: new Date('2026-02-01T00:00:00Z') })).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(startOf(newest, { open: false, closedAt: new Date('2026-01-01T00:00:00Z') })).toEqual(newest);
  });

  it('a request whose record is gone counts from its newest record', () => {
    expect(startOf(newest, { open: false, closedAt: null })).toEqual(newest);
  });
});

describe('collectDue', () => {
  const rows = Array.from({ length: 12 }, (_, i) => ({ key: String(i).padStart(2, '0') }));
  const page = (pages: string[][]) => async (after: string | undefined, size: number) => {
    pages.push([after ?? '-', String(size)]);
    return rows.filter((r) => after === undefined || r.key > after).slice(0, size);
  };
  const group = (key: string): RetentionGroup => ({ requestId: key, workspaceId: null, recordIds: [key], files: 0, startedAt: now });

  it('walks past candidates that are not due, page by page, up to the limit', async () => {
    const pages: string[][] = [];
    const due = await collectDue(page(pages), async (r) => (Number(r.key) % 3 === 0 ? group(r.key) : null), 3, 4);
    expect(due.map((g) => g.requestId)).toEqual(['00', '03', '06']);
    expect(pages).toEqual([
      ['-', '4'],
      ['03', '4'],
    ]);
  });

  it('stops at the last short page', async () => {
    const pages: string[][] = [];
    const due = await collectDue(page(pages), async (r) => group(r.key), 100, 5);
    expect(due).toHaveLength(12);
    expect(pages.map((p) => p[0])).toEqual(['-', '04', '09']);
  });
});
