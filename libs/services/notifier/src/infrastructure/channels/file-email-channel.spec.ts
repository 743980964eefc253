import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { ManualClock } from '@dsar/platform/clock';
import { FileEmailChannel } from './file-email-channel';

describe('FileEmailChannel', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dsar-mail-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the message as a parseable .eml file named by time and id, readable by the owner only', async () => {
    const dir = join(root, 'data', 'mail');
    const channel = new FileEmailChannel(dir, new ManualClock('2025-03-04T05:06:07.089Z', { running: false }));

    const outcome = await channel.send({
      to: 'alice@example.org',
      from: 'Acme Privacy <privacy@acme.example>',
      subject: 'Ihre Anfrage DSAR-1234',
      text: 'Wir haben Ihre Anfrage erhalten.',
      html: '<p>Wir haben Ihre Anfrage erhalten.</p>',
      messageId: 'send-0001',
      language: 'de',
      headers: { 'X-DSAR-Reference': 'DSAR-1234' },
    });

    const name = '2025-03-04T050607.089Z-send-0001.eml';
    expect(outcome).toEqual({ ok: true, providerId: name });
    expect(await readdir(dir)).toEqual([name]);
    expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);

    const parsed = await simpleParser(await readFile(join(dir, name)));
    expect(parsed.messageId).toBe('<send-0001@acme.example>');
    expect(parsed.to).toMatchObject({ value: [{ address: 'alice@example.org' }] });
    expect(parsed.subject).toBe('Ihre Anfrage DSAR-1234');
    expect(parsed.text?.trim()).toBe('Wir haben Ihre Anfrage erhalten.');
    expect(parsed.html).toContain('<p>Wir haben Ihre Anfrage erhalten.</p>');
    expect(parsed.date?.toISOString()).toBe('2025-03-04T05:06:07.000Z');
    expect(parsed.headers.get('content-language')).toBe('de');
    expect(parsed.headers.get('x-dsar-reference')).toBe('DSAR-1234');
    await channel.close();
  });

  it('keeps an id that could leave the directory inside it', async () => {
    const channel = new FileEmailChannel(root);
    const outcome = await channel.send({ to: 'a@example.org', from: 'p@acme.example', subject: 's', text: 't', html: '<p>t</p>', messageId: '../../etc/passwd' });
    expect(outcome.ok).toBe(true);
    const [name] = await readdir(root);
    expect(name).toMatch(/^[0-9T.Z-]+-etc-passwd\.eml$/);
  });

  it('removes the copies of given messages, every try of each, and nothing else', async () => {
    const clock = new ManualClock('2025-03-04T05:06:07.089Z', { running: false });
    const channel = new FileEmailChannel(root, clock);
    const mail = (messageId: string) => ({ to: 'alice@example.org', from: 'p@acme.example', subject: 's', text: 't', html: 'h', messageId });
    const purged = '7f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e';
    const kept = '2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e';
    await channel.send(mail(purged));
    clock.set('2025-03-04T06:00:00.000Z');
    // A resend (a replay, or a try after a crash) is a file of its own under the same id.
    await channel.send(mail(purged));
    await channel.send(mail(kept));
    await writeFile(join(root, 'notes.txt'), 'not a message');
    await writeFile(join(root, `copy-of-${purged}.eml`), 'not ours');

    expect(await channel.removeCopies([purged])).toBe(2);
    expect((await readdir(root)).sort()).toEqual([`2025-03-04T060000.000Z-${kept}.eml`, `copy-of-${purged}.eml`, 'notes.txt']);
    expect(await channel.removeCopies([purged])).toBe(0);
    expect(await channel.removeCopies([])).toBe(0);
  });

  it('removes nothing, and does not fail, when nothing was ever written', async () => {
    expect(await new FileEmailChannel(join(root, 'never')).removeCopies(['m'])).toBe(0);
  });

  it('answers transient when the directory cannot be written', async () => {
    const blocker = join(root, 'file');
    // A file where the directory should be: mkdir fails (ENOTDIR), as on a disk gone read-only or full.
    await writeFile(blocker, '');
    const channel = new FileEmailChannel(join(blocker, 'mail'));
    const outcome = await channel.send({ to: 'alice@example.org', from: 'p@acme.example', subject: 's', text: 't', html: 'h', messageId: 'm' });
    expect(outcome).toMatchObject({ ok: false, transient: true });
    if (!outcome.ok) expect(outcome.error).not.toContain('@');
  });
});
