import { createHmac } from 'node:crypto';
import { verifySlackSignature } from './slack-signature';

/** Slack's worked example of request signing (api.slack.com/docs/verifying-requests-from-slack), checked through Bolt. */
const EXAMPLE = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: Buffer.from(
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
    'utf8',
  ),
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const at = Number(EXAMPLE.timestamp) * 1000;
const headers = { signature: EXAMPLE.signature, timestamp: EXAMPLE.timestamp };

describe('Slack request signatures', () => {
  it("accepts Slack's worked example", () => {
    expect(verifySlackSignature(EXAMPLE.secret, headers, EXAMPLE.body, at)).toBeUndefined();
  });

  it('refuses another signature, another secret, another body', () => {
    expect(verifySlackSignature(EXAMPLE.secret, { ...headers, signature: EXAMPLE.signature.replace(/3$/, '4') }, EXAMPLE.body, at)).toBe('signature_invalid');
    expect(verifySlackSignature('0000000000000000000000000000000a', headers, EXAMPLE.body, at)).toBe('signature_invalid');
    expect(verifySlackSignature(EXAMPLE.secret, headers, Buffer.concat([EXAMPLE.body, Buffer.from('&x=1')]), at)).toBe('signature_invalid');
    expect(verifySlackSignature(EXAMPLE.secret, { ...headers, signature: EXAMPLE.signature.replace('v0=', 'v1=') }, EXAMPLE.body, at)).toBe('signature_invalid');
  });

  it('takes a timestamp within 5 minutes either way: Bolt checks the past, the future is checked too', () => {
    expect(verifySlackSignature(EXAMPLE.secret, headers, EXAMPLE.body, at + 300_000)).toBeUndefined();
    expect(verifySlackSignature(EXAMPLE.secret, headers, EXAMPLE.body, at + 301_000)).toBe('timestamp_out_of_tolerance');
    expect(verifySlackSignature(EXAMPLE.secret, headers, EXAMPLE.body, at - 301_000)).toBe('timestamp_out_of_tolerance');
  });

  it('refuses missing and malformed headers, and a body that is not UTF-8', () => {
    expect(verifySlackSignature(EXAMPLE.secret, { timestamp: EXAMPLE.timestamp }, EXAMPLE.body, at)).toBe('signature_missing');
    expect(verifySlackSignature(EXAMPLE.secret, { signature: EXAMPLE.signature }, EXAMPLE.body, at)).toBe('signature_missing');
    expect(verifySlackSignature(EXAMPLE.secret, { ...headers, timestamp: 'abc' }, EXAMPLE.body, at)).toBe('timestamp_invalid');
    const latin1 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]);
    const signed = `v0=${createHmac('sha256', EXAMPLE.secret)
      .update(Buffer.concat([Buffer.from(`v0:${EXAMPLE.timestamp}:`), latin1]))
      .digest('hex')}`;
    expect(verifySlackSignature(EXAMPLE.secret, { ...headers, signature: signed }, latin1, at)).toBe('signature_invalid');
  });
});
