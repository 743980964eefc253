import type { PolicyPackSummary, SessionView } from '@dsar/contracts';
import {
  activationBody,
  activeScopes,
  customPackRows,
  deactivationBody,
  emptyRegistration,
  learnt,
  mayDeactivate,
  mayRegister,
  NOT_APPROVED_CODE,
  OWN_APPROVAL_CODE,
  registrationOf,
  searchOfVersion,
  statusWords,
  versionActions,
  versionFromSearch,
  versionOfForm,
} from './custom-packs';

const packDocument = { packId: 'harbour-uk', version: '2.0.0', name: 'Harbour service standard', jurisdictions: [{ code: 'GB', name: 'United Kingdom' }], rules: {} };
const filled = { ...emptyRegistration(), changelog: 'Answers within twenty days.', compatibilityNotes: 'None.', document: JSON.stringify(packDocument) };

type Caller = Pick<SessionView, 'principal' | 'tenantId' | 'workspaceId' | 'permissions'>;
const alan: Caller = { principal: 'jwt:alan', tenantId: 'tenant-a', workspaceId: null, permissions: ['policies:read', 'policies:manage'] };
const mary: Caller = { ...alan, principal: 'jwt:mary' };
const northAdmin: Caller = { ...alan, principal: 'jwt:nora', workspaceId: 'north' };
const reader: Caller = { ...alan, principal: 'jwt:ada', permissions: ['policies:read'] };
const harbour = { name: 'harbour-uk', jurisdiction: 'GB', version: '2.0.0' };

function summary(version: string, workspaceId: string | null, overrides: Partial<PolicyPackSummary> = {}): PolicyPackSummary {
  return {
    packId: 'harbour-uk',
    name: 'Harbour service standard',
    jurisdiction: 'GB',
    jurisdictions: ['GB'],
    version,
    publishedAt: '2026-01-05T09:00:00.000Z',
    effectiveFrom: '2026-01-05',
    source: 'custom',
    activatedFor: { jurisdiction: 'GB', workspaceId },
    ...overrides,
  };
}

describe('the registration form of a custom pack', () => {
  it('sends the parsed document, taking the pack id, version and first jurisdiction from it when left empty', () => {
    const outcome = registrationOf(filled);
    expect(outcome).toEqual({
      ok: true,
      body: {
        jurisdiction: 'GB',
        name: 'harbour-uk',
        version: '2.0.0',
        pack: packDocument,
        metadata: { changelog: 'Answers within twenty days.', compatibilityNotes: 'None.', releaseType: 'major' },
      },
    });
    // What is typed wins, and the API checks it against the document.
    const typed = registrationOf({ ...filled, name: ' harbour-gb ', version: '2.1.0', jurisdiction: 'gb-sct', releaseType: 'minor' });
    expect(typed.ok && typed.body).toMatchObject({ name: 'harbour-gb', version: '2.1.0', jurisdiction: 'GB-SCT', metadata: { releaseType: 'minor' } });
  });

  it('says in place that the text is not JSON, or not a JSON object, and sends nothing', () => {
    const broken = registrationOf({ ...filled, document: '{"packId": "harbour-uk",}' });
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.errors.document).toMatch(/^This is not JSON: .+\. Check the quotes/);
    // Fields the document would have filled are not blamed for the document's fault.
    expect(!broken.ok && Object.keys(broken.errors)).toEqual(['document']);
    for (const [text, kind] of [
      ['[1, 2]', 'an array'],
      ['"harbour"', 'a string'],
      ['42', 'a number'],
      ['null', 'null'],
    ]) {
      const outcome = registrationOf({ ...filled, document: text });
      expect(!outcome.ok && outcome.errors.document).toBe(`The pack document must be a JSON object ({ … }), not ${kind}.`);
    }
    const empty = registrationOf({ ...filled, document: '  ' });
    expect(!empty.ok && empty.errors.document).toBe('Paste the pack document: a JSON object.');
  });

  it('checks the form of the pack id, version and jurisdiction, and asks for the changelog and compatibility notes', () => {
    const outcome = registrationOf({ ...filled, name: 'Harbour UK', version: '2.0', jurisdiction: 'Britain', changelog: ' ', compatibilityNotes: '' });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && Object.keys(outcome.errors).sort()).toEqual(['changelog', 'compatibilityNotes', 'jurisdiction', 'name', 'version']);
    const bare = registrationOf({ ...filled, document: JSON.stringify({ rules: {} }) });
    expect(!bare.ok && bare.errors).toEqual({
      name: 'Give the pack id, or a packId in the document.',
      version: 'Give the version, or a version in the document.',
      jurisdiction: 'Give the jurisdiction, or jurisdictions in the document.',
    });
  });
});

describe('the version a page shows', () => {
  it('is named in the address, and a malformed one is none', () => {
    expect(versionFromSearch(searchOfVersion(harbour))).toEqual(harbour);
    expect(versionFromSearch('?pack=harbour-uk&jurisdiction=gb&version=2.0.0')).toEqual(harbour);
    expect(versionFromSearch('?pack=Harbour&jurisdiction=GB&version=2.0.0')).toBeNull();
    expect(versionFromSearch('?pack=harbour-uk&jurisdiction=GB')).toBeNull();
    expect(versionFromSearch('')).toBeNull();
  });

  it('is opened from the form when each part has its form', () => {
    expect(versionOfForm({ name: ' harbour-uk ', jurisdiction: 'gb', version: '2.0.0' })).toEqual({ ok: true, version: harbour });
    const wrong = versionOfForm({ name: '', jurisdiction: 'G', version: 'v2' });
    expect(!wrong.ok && Object.keys(wrong.errors)).toEqual(['name', 'jurisdiction', 'version']);
  });
});

describe('what the page knows of a version, and the buttons it offers', () => {
  it('learns the registrant from its own registration, from an approval, and from the registrant refused its own approval', () => {
    expect(learnt({}, { kind: 'registered', by: 'jwt:alan' })).toEqual({ registeredBy: 'jwt:alan' });
    const approved = learnt({ notApproved: true }, { kind: 'approved', answer: { registeredBy: 'jwt:alan', approvedBy: 'jwt:mary', approvedAt: '2026-03-02T10:00:00.000Z' } });
    expect(approved).toEqual({ registeredBy: 'jwt:alan', approvedBy: 'jwt:mary', approvedAt: '2026-03-02T10:00:00.000Z' });
    const problem = (code: string) => ({ status: 403, title: 'Refused', detail: null, code });
    expect(learnt({}, { kind: 'refused', problem: problem(OWN_APPROVAL_CODE), principal: 'jwt:alan' })).toEqual({ registeredBy: 'jwt:alan' });
    expect(learnt({}, { kind: 'refused', problem: problem(NOT_APPROVED_CODE), principal: 'jwt:alan' })).toEqual({ notApproved: true });
    // Any other refusal teaches nothing.
    expect(learnt({ registeredBy: 'jwt:alan' }, { kind: 'refused', problem: problem('SVC-BE-1302'), principal: 'jwt:nora' })).toEqual({ registeredBy: 'jwt:alan' });
  });

  it('puts the state in words: active first, then the approval, then what is waiting', () => {
    expect(statusWords({ approvedBy: 'jwt:mary' }, [null, 'north'])).toBe('Active for the whole tenant and workspace north');
    expect(statusWords({ registeredBy: 'jwt:alan', approvedBy: 'jwt:mary' }, [])).toBe('Approved by jwt:mary');
    expect(statusWords({ registeredBy: 'jwt:alan' }, [])).toBe('Waiting for approval (registered by jwt:alan)');
    expect(statusWords({ notApproved: true }, [])).toBe('Waiting for approval');
    expect(statusWords({}, [])).toBe('Registered');
  });

  it('offers approval to another admin than the registrant, not confined to a workspace, while no approval is known', () => {
    const pending = { registeredBy: 'jwt:alan' };
    expect(versionActions(alan, pending, [], true)).toEqual({ approve: false, activate: true });
    expect(versionActions(mary, pending, [], true)).toEqual({ approve: true, activate: true });
    // Who registered it is unknown: the API decides, and the page shows its refusal.
    expect(versionActions(alan, {}, [], true).approve).toBe(true);
    expect(versionActions(mary, { ...pending, approvedBy: 'jwt:grace', approvedAt: '2026-03-02T10:00:00.000Z' }, [], true).approve).toBe(false);
    expect(versionActions(northAdmin, pending, [], true)).toEqual({ approve: false, activate: true });
  });

  it('offers activation where the version is not active in the session own scope, and nothing before the document is read or to a reader', () => {
    expect(versionActions(mary, {}, [null], true).activate).toBe(false);
    expect(versionActions(mary, {}, ['north'], true).activate).toBe(true);
    expect(versionActions(northAdmin, {}, [null], true).activate).toBe(true);
    expect(versionActions(northAdmin, {}, ['north'], true).activate).toBe(false);
    expect(versionActions(mary, {}, [], false)).toEqual({ approve: false, activate: false });
    expect(versionActions(reader, {}, [], true)).toEqual({ approve: false, activate: false });
  });

  it('lets an admin register from the whole tenant only, and end the activations of the own scope only', () => {
    expect(mayRegister(alan)).toBe(true);
    expect(mayRegister(northAdmin)).toBe(false);
    expect(mayRegister(reader)).toBe(false);
    expect(mayDeactivate(alan, null)).toBe(true);
    expect(mayDeactivate(alan, 'north')).toBe(false);
    expect(mayDeactivate(northAdmin, 'north')).toBe(true);
    expect(mayDeactivate(northAdmin, null)).toBe(false);
    expect(mayDeactivate(reader, null)).toBe(false);
  });

  it('activates and deactivates in the session own scope', () => {
    expect(activationBody(alan, harbour)).toEqual({ tenantId: 'tenant-a', jurisdiction: 'GB', version: '2.0.0', name: 'harbour-uk' });
    expect(activationBody(northAdmin, harbour)).toEqual({ tenantId: 'tenant-a', jurisdiction: 'GB', version: '2.0.0', name: 'harbour-uk', workspaceId: 'north' });
    expect(deactivationBody(alan, 'GB')).toEqual({ tenantId: 'tenant-a', jurisdiction: 'GB' });
    expect(deactivationBody(northAdmin, 'GB')).toEqual({ tenantId: 'tenant-a', jurisdiction: 'GB', workspaceId: 'north' });
  });
});

describe('the list of custom packs', () => {
  it('lists the active versions, one row per version with its scopes, then the versions the page knows, each once', () => {
    const builtIn = summary('1.0.0', null, { packId: 'uk-gdpr', source: 'built_in', activatedFor: null });
    const packs = [builtIn, summary('2.0.0', null), summary('2.0.0', 'north')];
    expect(activeScopes(packs, harbour)).toEqual([null, 'north']);
    expect(activeScopes(packs, { ...harbour, jurisdiction: 'GB-SCT' })).toEqual([]);
    const rows = customPackRows(packs, [
      { ...harbour, facts: { approvedBy: 'jwt:mary' } },
      { ...harbour, version: '2.1.0', facts: { registeredBy: 'jwt:alan' } },
    ]);
    expect(rows).toEqual([
      { ...harbour, title: 'Harbour service standard', scopes: [null, 'north'], facts: { approvedBy: 'jwt:mary' } },
      { ...harbour, version: '2.1.0', title: null, scopes: [], facts: { registeredBy: 'jwt:alan' } },
    ]);
  });
});
