import { CHAIN_GENESIS, ChainVerifier } from './chain-verifier';
import { type ChainEntry, chainEntry, type EntryFacts, entryHash, GENESIS_HASH, readEntry, storedEntry } from './chain';
import { canonicalJson, sha256Of } from './hashing';
import { leafHash, merkleRoot } from './merkle';

// Expected hashes were computed outside the code, with printf and `openssl dgst -sha256` over
// hand-written RFC 8785 text (keys sorted, no spaces), as docs/audit.md tells a verifier to do.
const REQUEST = '7f0c2a56-95a1-4d3e-9d7b-3f1f1b2a9c10';
const first: Omit<EntryFacts, 'sequence'> = {
  tenantId: 'acme',
  requestId: REQUEST,
  eventId: '00000000-0000-4000-8000-000000000001',
  eventType: 'dsar.request.created.v1',
  source: '/dsar/lifecycle-clock',
  actor: 'ops@acme',
  occurredAt: '2026-05-04T10:00:00.000Z',
  recordedAt: '2026-05-04T10:00:01.000Z',
  payload: { z: [true, null], b: 1, a: 'é' },
};
const second: Omit<EntryFacts, 'sequence'> = {
  ...first,
  eventId: '00000000-0000-4000-8000-000000000002',
  eventType: 'dsar.request.acknowledged.v1',
  actor: 'lifecycle-clock',
  occurredAt: '2026-05-05T08:30:00.000Z',
  recordedAt: '2026-05-05T08:30:00.250Z',
  payload: {},
};
const H1 = 'sha256:35850c8ac368bff38856dd7aa044663c589fcfc31c1130b7089169a252fc88ab';
const H2 = 'sha256:07832047e06c9485c59f8e85c93c8a3b6aac42c0cb2403cf99cb78cedf7a975c';

function chainOf(...facts: Omit<EntryFacts, 'sequence'>[]): ChainEntry[] {
  const out: ChainEntry[] = [];
  for (const f of facts) out.push(chainEntry(out[out.length - 1] ?? CHAIN_GENESIS, f));
  return out;
}

describe('the hash chain', () => {
  it('hashes the link followed by the RFC 8785 JSON of the entry, as openssl does over the same text', () => {
    const [e1, e2] = chainOf(first, second);
    expect(e1).toMatchObject({ sequence: 1, prevHash: GENESIS_HASH, hash: H1 });
    expect(e2).toMatchObject({ sequence: 2, prevHash: H1, hash: H2 });
  });

  it('does not depend on key order or on fields outside the entry', () => {
    const reordered = Object.fromEntries(Object.entries({ ...first, sequence: 1 }).reverse()) as unknown as EntryFacts;
    expect(entryHash(GENESIS_HASH, { ...reordered, extra: 'ignored' } as EntryFacts)).toBe(H1);
  });

  it('prints escaped and non-ASCII text, and a missing field, as the generic RFC 8785 canonicalizer does', () => {
    const awkward: EntryFacts = {
      ...first,
      sequence: 7,
      actor: 'quote " backslash \\ tab \t nul \u0000 line \u2028 emoji 🔏 lone \ud800',
      source: '</script>',
      payload: { '\u00e9': 'é', e: 1e21, n: -0, d: 0.1, nested: { b: [1, 'x'], a: null } },
    };
    expect(entryHash(H1, awkward)).toBe(sha256Of(H1, canonicalJson(awkward)));
    const withoutActor = { ...awkward, actor: undefined } as unknown as EntryFacts;
    expect(entryHash(H1, withoutActor)).toBe(sha256Of(H1, canonicalJson(withoutActor)));
    expect(entryHash(H1, withoutActor)).not.toBe(entryHash(H1, awkward));
  });

  it('changes with any fact, and with the link', () => {
    expect(entryHash(GENESIS_HASH, { ...first, sequence: 1, actor: 'someone-else' })).not.toBe(H1);
    expect(entryHash(GENESIS_HASH, { ...first, sequence: 2 })).not.toBe(H1);
    expect(entryHash(H2, { ...first, sequence: 1 })).not.toBe(H1);
  });
});

describe('ChainVerifier', () => {
  const verify = (entries: ChainEntry[]) => {
    const v = new ChainVerifier();
    entries.forEach((e) => v.push(e));
    return v;
  };
  const chain = chainOf(first, second, { ...second, eventId: '00000000-0000-4000-8000-000000000003' }, { ...second, eventId: '00000000-0000-4000-8000-000000000004' });

  it('finds nothing wrong with an untouched chain', () => {
    const v = verify(chain);
    expect(v.mismatches).toEqual([]);
    expect(v.entriesChecked).toBe(4);
  });

  it('checks the stored form (payload as its RFC 8785 text) as it checks the entry, and sees a change of spacing alone', () => {
    const stored = chain.map(storedEntry);
    expect(stored[0].payloadJson).toBe('{"a":"é","b":1,"z":[true,null]}');
    expect(stored.map(readEntry)).toEqual(chain);
    const v = new ChainVerifier();
    stored.forEach((e) => v.push(e));
    expect(v.mismatches).toEqual([]);
    const respaced = stored.map((e) => (e.sequence === 1 ? { ...e, payloadJson: '{"a": "é","b":1,"z":[true,null]}' } : e));
    const w = new ChainVerifier();
    respaced.forEach((e) => w.push(e));
    expect(w.mismatches).toEqual([expect.objectContaining({ eventId: chain[0].eventId, sequence: 1, kind: 'content', expectedHash: H1 })]);
  });

  it('names the edited entry, with the hash it holds and the hash its content gives', () => {
    const edited = chain.map((e) => (e.sequence === 2 ? { ...e, payload: { forged: true } } : e));
    expect(verify(edited).mismatches).toEqual([{ eventId: chain[1].eventId, sequence: 2, kind: 'content', expectedHash: chain[1].hash, actualHash: entryHash(chain[1].prevHash, edited[1]) }]);
  });

  it('catches an entry rewritten with a fresh hash at the link of the next one', () => {
    const forged = { ...chain[1], actor: 'forger' };
    forged.hash = entryHash(forged.prevHash, forged);
    const v = verify([chain[0], forged, chain[2], chain[3]]);
    expect(v.mismatches).toEqual([{ eventId: chain[2].eventId, sequence: 3, kind: 'link', expectedHash: forged.hash, actualHash: chain[1].hash }]);
  });

  it('catches a removed entry as a sequence gap', () => {
    const v = verify([chain[0], chain[2], chain[3]]);
    expect(v.mismatches).toEqual([{ eventId: chain[2].eventId, sequence: 3, kind: 'sequence', expectedHash: chain[0].hash, actualHash: chain[1].hash }]);
  });

  it('starts from a purge checkpoint', () => {
    const v = new ChainVerifier({ sequence: 2, hash: chain[1].hash });
    v.push(chain[2]);
    v.push(chain[3]);
    expect(v.mismatches).toEqual([]);
  });
});

describe('Merkle root', () => {
  const leaves = ['a', 'b', 'c'].map((requestId, i) => ({ requestId, sequence: i + 1, hash: H1 }));

  it('hashes leaves and pairs of nodes as docs/audit.md shows, promoting an odd node', () => {
    expect(leafHash(leaves[0])).toBe('sha256:fa7dde3431cae258647a0180f1de1a2f72e0fa01090e6cd597ffa3844a3bee8a');
    expect(merkleRoot(leaves.map(leafHash))).toBe('sha256:e0c89fb1c91a24cbae693f324b134863e3841496b49c5614bab613459f180613');
  });

  it('is the leaf itself for one leaf, and refuses none', () => {
    expect(merkleRoot([leafHash(leaves[0])])).toBe(leafHash(leaves[0]));
    expect(() => merkleRoot([])).toThrow(RangeError);
  });
});
