import { z } from 'zod';
import { supportedJurisdictions } from '../policy/jurisdictions';
import { queueQuery } from './requests';
import { idRangeOfReference, SHORT_REFERENCE_PATTERN } from './request-reference';

/** What the OpenAPI document publishes for a query parameter: its pattern, which a client (or a fuzzer) trusts. */
function published(name: string): RegExp {
  type Node = { properties?: Record<string, { pattern: string }>; $ref?: string; $defs?: Record<string, Node> };
  const json = z.toJSONSchema(queueQuery, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Node;
  const query = json.$ref ? json.$defs![json.$ref.replace('#/$defs/', '')] : json;
  return new RegExp(query.properties![name].pattern);
}

describe("the queue's filters", () => {
  it('take a request type, jurisdiction or channel alone or as a list, jurisdictions in any case', () => {
    expect(queueQuery.parse({ requestType: 'deletion', jurisdiction: ' de , us-ca,', channel: 'email,web_form' })).toEqual({
      requestType: ['deletion'],
      jurisdiction: ['DE', 'US-CA'],
      channel: ['email', 'web_form'],
    });
    expect(queueQuery.parse({ reference: 'dsar-44cec96b', receivedFrom: '2026-03-01T00:00:00Z', receivedTo: '2026-04-01T00:00:00+02:00' })).toEqual({
      reference: 'DSAR-44CEC96B',
      receivedFrom: '2026-03-01T00:00:00Z',
      receivedTo: '2026-04-01T00:00:00+02:00',
    });
  });

  it.each([
    ['requestType', 'refund'],
    ['requestType', ''],
    ['requestType', 'ACCESS'],
    ['jurisdiction', 'XX'],
    ['jurisdiction', 'DE,XX'],
    ['jurisdiction', 'D'],
    ['channel', 'fax'],
    ['receivedFrom', '2026-03-01'],
    ['receivedTo', 'yesterday'],
    ['reference', 'DSAR-123'],
    ['reference', 'DSAR-44CEC96B-7K3QX9M2TR4VB'],
    ['reference', '44cec96b'],
  ])('refuse %s=%s, naming it', (name, value) => {
    const parsed = queueQuery.safeParse({ [name]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual([name]);
  });

  it('publish patterns that admit exactly what the server takes', () => {
    const samples: Record<string, string[]> = {
      requestType: ['access', 'opt_out,deletion', ' portability ', 'refund', 'access,', 'Access'],
      jurisdiction: [...supportedJurisdictions(), 'de', 'us-ca,gb-sct', 'Us-Ca', 'XX', 'US-NY', 'DE-', 'EUR'],
      channel: ['email', 'in_person,api', 'fax', 'EMAIL'],
      reference: ['DSAR-44CEC96B', 'dsar-44cec96b', 'DsAr-0123abcd', 'DSAR-44CEC96', 'DSAR-44CEC96BB', 'DSAR-44CEC96G', 'XDSAR-44CEC96B'],
    };
    for (const [name, values] of Object.entries(samples)) {
      for (const value of values) {
        expect({ name, value, accepted: queueQuery.safeParse({ [name]: value }).success }).toEqual({ name, value, accepted: published(name).test(value) });
      }
    }
  });

  it('take an empty receipt range: it lists nothing, and is not an error', () => {
    expect(queueQuery.safeParse({ receivedFrom: '2026-04-01T00:00:00Z', receivedTo: '2026-03-01T00:00:00Z' }).success).toBe(true);
  });
});

describe('short references', () => {
  it('are DSAR- and eight hex digits, in any case, and nothing around them', () => {
    for (const ok of ['DSAR-44CEC96B', 'dsar-44cec96b']) expect([ok, SHORT_REFERENCE_PATTERN.test(ok)]).toEqual([ok, true]);
    for (const bad of ['DSAR-44CEC96', ' DSAR-44CEC96B', 'DSAR-44CEC96B\n', 'DSAR-44CEC96B-7K3QX9M2TR4VB', 'DSAR_44CEC96B']) expect([bad, SHORT_REFERENCE_PATTERN.test(bad)]).toEqual([bad, false]);
  });

  it('name the range of ids that start with their digits', () => {
    expect(idRangeOfReference('DSAR-44CEC96B')).toEqual({ from: '44cec96b-0000-0000-0000-000000000000', to: '44cec96b-ffff-ffff-ffff-ffffffffffff' });
    expect(idRangeOfReference('DSAR-44CEC96')).toBeUndefined();
  });
});
