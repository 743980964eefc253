import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { mailDirOf, notifierFields, notifierSettingsFrom, requirePortalUrl } from './notifier-settings';

describe('the file email channel folder (no SMTP)', () => {
  it('is `mail` in DATA_DIR', () => {
    expect(mailDirOf('./.data')).toBe('./.data/mail');
    expect(mailDirOf('/var/lib/dsar/')).toBe('/var/lib/dsar/mail');
    expect(mailDirOf()).toBe('./.data/mail');
  });

  it('is in the temporary directory for a DATA_DIR in memory, never a `memory:` folder in the working directory', () => {
    expect(mailDirOf('memory://console-tabs')).toBe(join(tmpdir(), 'dsar-memory', 'console-tabs', 'mail'));
    expect(mailDirOf('memory://date-guard-2026-12-24T12:00:00Z')).toBe(join(tmpdir(), 'dsar-memory', 'date-guard-2026-12-24T12_00_00Z', 'mail'));
    expect(mailDirOf('memory://../escape')).toBe(join(tmpdir(), 'dsar-memory', '_._escape', 'mail'));
    expect(mailDirOf('memory://..')).toBe(join(tmpdir(), 'dsar-memory', '_.', 'mail'));
  });
});

describe("PORTAL_URL, the person's download page", () => {
  const parse = (value: unknown) => notifierFields.PORTAL_URL.safeParse(value);

  it.each(['https://dsar.example.org/portal/', 'http://localhost:8080/portal/', 'https://privacy.example.com/dsar/portal/'])('takes %s', (url) => {
    expect(parse(url)).toMatchObject({ success: true, data: url });
    expect(notifierSettingsFrom({ PORTAL_URL: url }).portalUrl).toBe(url);
  });

  it.each([
    ['without /portal/ at the end', 'https://dsar.example.org/'],
    ['without the final slash', 'https://dsar.example.org/portal'],
    ['with a query', 'https://dsar.example.org/portal/?from=mail'],
    ['with a fragment of its own', 'https://dsar.example.org/portal/#start'],
    ['with credentials', 'https://user:secret@dsar.example.org/portal/'],
    ['of another scheme', 'ftp://dsar.example.org/portal/'],
    ['relative', '/portal/'],
  ])('refuses a URL %s', (_case, url) => {
    const result = parse(url);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/https:\/\/dsar\.example\.org\/portal\//);
  });

  it("is required by the notifier's own process, optional elsewhere (the embedded runner derives it)", () => {
    const schema = z.object({ PORTAL_URL: notifierFields.PORTAL_URL }).superRefine(requirePortalUrl);
    expect(schema.safeParse({}).error?.issues).toEqual([expect.objectContaining({ path: ['PORTAL_URL'], message: expect.stringMatching(/^required: the person's download page/) })]);
    expect(schema.safeParse({ PORTAL_URL: 'https://dsar.example.org/portal/' }).success).toBe(true);
    expect(notifierSettingsFrom({}).portalUrl).toBeUndefined();
  });
});
