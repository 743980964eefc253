import { readSaved, type Saved, SAVED_KEY, sessionOf, writeSaved, clearSaved } from './saved';

/** sessionStorage as a map. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}

const link = { linkId: '5b0e6f0c-2f4a-4d8e-9a61-7c3d2b1a0f9e', credential: 'Qm9va3NoZWxmLWxhbXAtb3JjaGFyZC1yaXZlci1zdG8' };
const artifact = { artifactId: '0e9f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f', filename: 'profile.json', title: 'Profile', contentType: 'application/json', size: 2048, sha256: 'ab'.repeat(32) };
const session = { session: 'c2Vzc2lvbi1mb3ItdGhlLWRvd25sb2FkLXBhZ2UtdGV', sessionExpiresAt: '2025-03-13T10:00:00.000Z', artifacts: [artifact] };

describe('what the page keeps for its tab', () => {
  it('is read back as written: the link, what the API said of it, the session and its files', () => {
    const storage = memoryStorage();
    const saved: Saved = { link, view: { reference: 'DSAR-5B0E6F0C', language: 'de', expiresAt: '2025-03-13T10:00:00.000Z' }, session };
    writeSaved(storage, saved);
    expect([...storage.items.keys()]).toEqual([SAVED_KEY]);
    expect(readSaved(storage)).toEqual(saved);
    clearSaved(storage);
    expect(readSaved(storage)).toBeUndefined();
  });

  it('keeps the link when what was said of it is unreadable, and drops that part only', () => {
    const storage = memoryStorage();
    storage.setItem(SAVED_KEY, JSON.stringify({ link, view: { reference: 'DSAR-5B0E6F0C', language: 'sv', expiresAt: 'x' }, session: { ...session, artifacts: [] } }));
    expect(readSaved(storage)).toEqual({ link, view: null, session: null });
  });

  it('is nothing when it is not JSON or the link is not one', () => {
    const storage = memoryStorage();
    for (const text of ['{', 'null', '[]', JSON.stringify({ link: { linkId: 'x', credential: link.credential } }), JSON.stringify({ link: { linkId: link.linkId } })]) {
      storage.setItem(SAVED_KEY, text);
      expect({ text, saved: readSaved(storage) }).toEqual({ text, saved: undefined });
    }
  });
});

describe('a session answer', () => {
  it('is taken with its files, each checked', () => {
    expect(sessionOf({ ...session, linkId: link.linkId })).toEqual(session);
    expect(sessionOf({ ...session, session: 'short' })).toBeNull();
    expect(sessionOf({ ...session, artifacts: [{ ...artifact, size: -1 }] })).toBeNull();
    expect(sessionOf({ ...session, artifacts: [{ ...artifact, title: null }] })).toBeNull();
    expect(sessionOf({ ...session, artifacts: [] })).toBeNull();
    expect(sessionOf('session')).toBeNull();
  });

  it('keeps only the fields the page shows and needs', () => {
    expect(sessionOf({ ...session, artifacts: [{ ...artifact, dataCategories: ['x'] }] })?.artifacts).toEqual([artifact]);
  });
});
