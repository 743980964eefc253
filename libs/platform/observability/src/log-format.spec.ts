import pino from 'pino';
import { prettyLogDestination, prettyLogLine } from './log-format';
import { loggerParams } from './logging';

const at = new Date(2026, 0, 5, 14, 2, 7).getTime();

describe('the pretty log format', () => {
  it('writes a record as one short line: time, level, context, message and a few fields', () => {
    expect(prettyLogLine(JSON.stringify({ level: 40, time: at, service: 'dsar', context: 'audit-ledger:consumer', msg: 'retrying', attempt: 2 }))).toBe(
      '14:02:07 WARN  [audit-ledger:consumer] retrying attempt=2\n',
    );
  });

  it("shows a request's method, path, status and time, and an error's type and message", () => {
    const request = { level: 40, time: at, req: { id: 'r1', method: 'POST', url: '/api/v1/requests' }, res: { statusCode: 400 }, responseTime: 12, msg: 'request completed' };
    expect(prettyLogLine(JSON.stringify(request))).toBe('14:02:07 WARN  request completed POST /api/v1/requests -> 400 in 12 ms\n');
    const failed = { level: 50, time: at, context: 'http', err: { type: 'QueryFailedError', message: 'violates check constraint', stack: '…' }, msg: 'request failed' };
    expect(prettyLogLine(JSON.stringify(failed))).toBe('14:02:07 ERROR [http] request failed QueryFailedError: violates check constraint\n');
  });

  it('keeps a line short whatever the record holds, and passes a line that is not JSON through', () => {
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(500)]));
    const line = prettyLogLine(JSON.stringify({ level: 30, time: at, msg: 'm', ...many }));
    expect(line).toContain('(+4 fields)');
    expect(line.length).toBeLessThan(6 * 130 + 60);
    expect(prettyLogLine('plain text')).toBe('plain text\n');
  });

  it('writes what the JSON logger would, redacted the same way', () => {
    let written = '';
    const destination = prettyLogDestination({ write: (text: string) => (written += text) });
    const options = loggerParams('dsar', 'info', destination).pinoHttp as [pino.LoggerOptions, pino.DestinationStream];
    const logger = pino(options[0], options[1]);
    logger.warn({ email: 'jane@example.org', count: 3 }, 'sent to jane@example.org with Bearer dsar_dev_0123456789abcdef');
    expect(written).not.toContain('jane@example.org');
    expect(written).not.toContain('dsar_dev_0123456789abcdef');
    expect(written).toMatch(/^\d{2}:\d{2}:\d{2} WARN {2}sent to \[REDACTED\] with Bearer \[REDACTED\] email=\[REDACTED\] count=3\n$/);
  });
});
