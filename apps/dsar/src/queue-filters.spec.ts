import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { INTAKE_CHANNELS, REQUEST_TYPES, supportedJurisdictions } from '@dsar/contracts';
import { instantArg, listOf, QUEUE_CHANNELS, QUEUE_JURISDICTIONS, QUEUE_REQUEST_TYPES, requestsCommands } from './commands/requests';
import { bashCompletion } from './completion';
import { type Io, Kit } from './kit';

describe('the queue filters of `dsar requests list`', () => {
  it('offer the values the API takes (the contracts hold them; the CLI keeps copies)', () => {
    expect(QUEUE_REQUEST_TYPES).toEqual(REQUEST_TYPES);
    expect(QUEUE_CHANNELS).toEqual(INTAKE_CHANNELS);
    expect(QUEUE_JURISDICTIONS).toEqual(supportedJurisdictions());
  });

  it('take one value or a comma-separated list, also given several times, and refuse an unknown one before sending', () => {
    const types = listOf(QUEUE_REQUEST_TYPES);
    expect(types('deletion, access', undefined)).toEqual(['deletion', 'access']);
    expect(types('opt_out', ['deletion'])).toEqual(['deletion', 'opt_out']);
    expect(() => types('refund,access', undefined)).toThrow(/refund: must be one or more \(comma-separated\) of access, deletion/);
    expect(() => types(',', undefined)).toThrow(/must be one or more/);
    expect(listOf(QUEUE_JURISDICTIONS, (c) => c.toUpperCase())('de,us-ca', undefined)).toEqual(['DE', 'US-CA']);
  });

  it('read a date alone as its start in UTC, and pass an instant on for the server to check', () => {
    expect(instantArg('2026-03-01')).toBe('2026-03-01T00:00:00Z');
    expect(instantArg(' 2026-03-01T09:30:00+01:00 ')).toBe('2026-03-01T09:30:00+01:00');
    expect(instantArg('yesterday')).toBe('yesterday');
  });

  it('are completed by bash with their values', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough() } as unknown as Io;
    const program = new Command('dsar');
    requestsCommands(program, new Kit(io, 'test'));
    const complete = async (...words: string[]) => {
      const script = `${bashCompletion(program)}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _dsar; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const { stdout } = await promisify(execFile)('bash', ['-c', script]);
      return stdout.split('\n').filter(Boolean).sort();
    };
    expect(await complete('dsar', 'requests', 'list', '--type', '')).toEqual([...QUEUE_REQUEST_TYPES].sort());
    expect(await complete('dsar', 'requests', 'list', '--channel', 'p')).toEqual(['phone', 'postal_mail']);
    expect(await complete('dsar', 'requests', 'list', '--jurisdiction', 'US-')).toEqual(['US-CA', 'US-CO', 'US-CT', 'US-OR', 'US-TX', 'US-UT', 'US-VA']);
    expect(await complete('dsar', 'requests', 'list', '--rec')).toEqual(['--received-from', '--received-to']);
    expect(await complete('dsar', 'requests', 'list', '--ref')).toEqual(['--reference']);
    expect(await complete('dsar', 'requests', 'list', '--waiting-on-systems', '')).toEqual(['false', 'true']);
  }, 60_000); // spawns bash five times: more than the default 5 s on a busy machine
});
