import { formatBytes, formatDateTime, formatPercent, formatWait } from './format';

/** Intl puts a narrow or plain no-break space between number and unit in some languages: compared as a plain space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('a file size in words', () => {
  it('counts bytes, then decimal units with one decimal under 10', () => {
    expect(plain(formatBytes(0, 'en'))).toBe('0 bytes');
    expect(plain(formatBytes(1, 'en'))).toBe('1 byte');
    expect(plain(formatBytes(812, 'en'))).toBe('812 bytes');
    expect(plain(formatBytes(1000, 'en'))).toBe('1 kB');
    expect(plain(formatBytes(1_536, 'en'))).toBe('1.5 kB');
    expect(plain(formatBytes(20_400_000, 'en'))).toBe('20 MB');
    expect(plain(formatBytes(999_600, 'en'))).toBe('1 MB');
    expect(plain(formatBytes(3_250_000_000, 'en'))).toBe('3.3 GB');
    expect(plain(formatBytes(5e15, 'en'))).toBe('5,000 TB');
  });

  it("is written in the page's language", () => {
    expect(plain(formatBytes(1_536_000, 'de'))).toBe('1,5 MB');
    expect(plain(formatBytes(1_536_000, 'fr'))).toBe('1,5 Mo');
    expect(plain(formatBytes(812, 'fr'))).toBe('812 octets');
    expect(plain(formatBytes(812, 'de'))).toBe('812 Byte');
    expect(plain(formatBytes(1_536, 'nl'))).toBe('1,5 kB');
  });

  it('is empty for what is no size', () => {
    expect(formatBytes(-1, 'en')).toBe('');
    expect(formatBytes(Number.NaN, 'en')).toBe('');
    expect(formatBytes(Number.POSITIVE_INFINITY, 'en')).toBe('');
  });
});

describe('a share of a download', () => {
  it('is a whole percentage, never 100% before the end', () => {
    expect(formatPercent(0, 'en')).toBe('0%');
    expect(formatPercent(0.456, 'en')).toBe('45%');
    expect(formatPercent(0.999, 'en')).toBe('99%');
    expect(formatPercent(1, 'en')).toBe('100%');
    expect(plain(formatPercent(0.5, 'de'))).toBe('50 %');
    expect(formatPercent(7, 'en')).toBe('100%');
    expect(formatPercent(Number.NaN, 'en')).toBe('0%');
  });
});

describe("the link's expiry", () => {
  it("is a date and time in the page's language", () => {
    expect(plain(formatDateTime('2025-03-12T14:30:00Z', 'en', 'UTC'))).toBe('March 12, 2025 at 2:30 PM');
    expect(plain(formatDateTime('2025-03-12T14:30:00Z', 'de', 'UTC'))).toBe('12. März 2025 um 14:30');
    expect(plain(formatDateTime('2025-03-12T14:30:00Z', 'nl', 'Europe/Amsterdam'))).toBe('12 maart 2025 om 15:30');
    expect(formatDateTime('not a date', 'en')).toBe('not a date');
  });
});

describe('a wait', () => {
  it('is said in seconds, minutes or hours from now, rounded up', () => {
    expect(formatWait(0, 'en')).toBe('in 1 second');
    expect(formatWait(30, 'en')).toBe('in 30 seconds');
    expect(formatWait(61, 'en')).toBe('in 2 minutes');
    expect(formatWait(3600, 'en')).toBe('in 1 hour');
    expect(formatWait(120, 'de')).toBe('in 2 Minuten');
    expect(formatWait(120, 'it')).toBe('tra 2 minuti');
  });
});
