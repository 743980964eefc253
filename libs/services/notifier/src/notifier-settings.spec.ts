import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mailDirOf } from './notifier-settings';

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
