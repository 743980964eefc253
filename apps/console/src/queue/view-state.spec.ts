import { apiQueryOf, EMPTY_VIEW, type QueueView, searchOfView, startOfLocalDay, validDate, viewFromSearch, withPage } from './view-state';

const FULL_VIEW: QueueView = {
  status: ['received', 'in_progress'],
  requestType: 'deletion',
  jurisdiction: 'US-CA',
  channel: 'email',
  receivedFrom: '2026-01-01',
  receivedBefore: '2026-02-01',
  atRiskDays: 7,
  overdue: false,
  waitingOnSystems: true,
  triage: false,
  duplicate: true,
  reference: 'DSAR-1A2B3C4D',
  sortBy: 'dueAt',
  sortOrder: 'asc',
  page: 3,
};

describe("the queue's view in the address", () => {
  it('gives the default view for an empty query string, and no query string for the default view', () => {
    expect(viewFromSearch('')).toEqual(EMPTY_VIEW);
    expect(searchOfView(EMPTY_VIEW)).toBe('');
  });

  it('comes back the same from its query string (round trip)', () => {
    const search = searchOfView(FULL_VIEW);
    expect(viewFromSearch(search)).toEqual(FULL_VIEW);
    expect(searchOfView(viewFromSearch(search))).toBe(search);
  });

  it('round-trips the yes/no filters set to no and the overdue flag', () => {
    const view: QueueView = { ...EMPTY_VIEW, overdue: true, waitingOnSystems: false, triage: true, duplicate: false };
    expect(viewFromSearch(searchOfView(view))).toEqual(view);
  });

  it('writes only what differs from the default, in a fixed order', () => {
    expect(searchOfView({ ...EMPTY_VIEW, sortBy: 'dueAt' })).toBe('?sortBy=dueAt');
    expect(searchOfView({ ...EMPTY_VIEW, page: 2, status: ['refused', 'received'] })).toBe('?status=refused%2Creceived&page=2');
  });

  it('orders statuses as the contract lists them and drops unknown or repeated ones', () => {
    expect(viewFromSearch('?status=closed,bogus,received,closed').status).toEqual(['received', 'closed']);
  });

  it('leaves out what a hand-edited address gets wrong, and keeps the rest', () => {
    const view = viewFromSearch(
      '?requestType=gossip&jurisdiction=not-a-code&channel=pigeon&receivedFrom=2026-02-31&atRiskDays=-1&triage=maybe&reference=DSAR-XYZ&sortBy=name&sortOrder=up&page=0&channel=email',
    );
    expect(view).toEqual(EMPTY_VIEW);
    expect(viewFromSearch('?jurisdiction=de&reference=dsar-1a2b3c4d&atRiskDays=3650').jurisdiction).toBe('DE');
    expect(viewFromSearch('?reference=dsar-1a2b3c4d').reference).toBe('DSAR-1A2B3C4D');
    expect(viewFromSearch('?atRiskDays=3651').atRiskDays).toBeUndefined();
    expect(viewFromSearch('?page=999999999').page).toBe(1);
  });

  it("never reads a person's identity from the address", () => {
    const view = viewFromSearch('?identity=jane%40example.org&identityKind=email&status=received');
    expect(view).toEqual({ ...EMPTY_VIEW, status: ['received'] });
    expect(JSON.stringify(view)).not.toContain('jane');
  });

  it("never writes a person's identity into the address, even when handed one with the view", () => {
    const smuggled = { ...FULL_VIEW, identity: 'jane@example.org', identityKind: 'email', value: 'jane@example.org' } as QueueView;
    const search = searchOfView(smuggled);
    expect(search).toBe(searchOfView(FULL_VIEW));
    expect(decodeURIComponent(search)).not.toContain('jane');
    expect(search).not.toContain('identity');
  });
});

describe("the queue's view as the API's query", () => {
  it('asks for the page, its size and the sort, with the filters in their API names', () => {
    const q = apiQueryOf(FULL_VIEW);
    expect(Object.fromEntries(q)).toEqual({
      limit: '25',
      offset: '50',
      sortBy: 'dueAt',
      sortOrder: 'asc',
      status: 'received,in_progress',
      requestType: 'deletion',
      jurisdiction: 'US-CA',
      channel: 'email',
      receivedFrom: startOfLocalDay('2026-01-01'),
      receivedTo: startOfLocalDay('2026-02-01'),
      atRiskDays: '7',
      waitingOnSystems: 'true',
      triage: 'false',
      duplicate: 'true',
      reference: 'DSAR-1A2B3C4D',
    });
  });

  it('asks for overdue requests as due by now (atRiskDays=0), whatever the at-risk days say', () => {
    expect(apiQueryOf({ ...EMPTY_VIEW, overdue: true, atRiskDays: 30 }).get('atRiskDays')).toBe('0');
  });

  it('sends the identity and its kind to the API only, trimmed; a blank one not at all', () => {
    const q = apiQueryOf(EMPTY_VIEW, { value: '  Jane@Example.org ', kind: 'email' });
    expect(q.get('identity')).toBe('Jane@Example.org');
    expect(q.get('identityKind')).toBe('email');
    expect(apiQueryOf(EMPTY_VIEW, { value: '   ', kind: 'phone' }).has('identity')).toBe(false);
  });

  it('turns a local date into the instant its day starts in the browser', () => {
    expect(startOfLocalDay('2026-03-01')).toBe(new Date(2026, 2, 1).toISOString());
  });
});

describe('dates and pages', () => {
  it('takes real days only', () => {
    expect(validDate('2028-02-29')).toBe('2028-02-29');
    expect(validDate('2026-02-29')).toBeUndefined();
    expect(validDate('2026-13-01')).toBeUndefined();
    expect(validDate('1969-12-31')).toBeUndefined();
    expect(validDate('26-01-01')).toBeUndefined();
    expect(validDate(null)).toBeUndefined();
  });

  it('keeps the page number at 1 or more', () => {
    expect(withPage(FULL_VIEW, 0).page).toBe(1);
    expect(withPage(FULL_VIEW, 4)).toEqual({ ...FULL_VIEW, page: 4 });
  });
});
