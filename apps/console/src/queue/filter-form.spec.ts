import { formOfView, viewOfForm } from './filter-form';
import { EMPTY_VIEW, type QueueView, searchOfView } from './view-state';

describe("the queue's filter form", () => {
  it('gives back the view it was filled from, on page 1', () => {
    const view: QueueView = { ...EMPTY_VIEW, status: ['received'], jurisdiction: 'DE', atRiskDays: 5, triage: true, reference: 'DSAR-0A0B0C0D', sortBy: 'dueAt', page: 4 };
    const outcome = viewOfForm(formOfView(view, null));
    expect(outcome).toEqual({ view: { ...view, page: 1 }, identity: null, errors: {} });
  });

  it('reads codes typed in small letters, and trims what was typed', () => {
    const form = { ...formOfView(EMPTY_VIEW, null), jurisdiction: ' us-ca ', reference: ' dsar-1a2b3c4d ', atRiskDays: ' 14 ' };
    const { view, errors } = viewOfForm(form);
    expect(errors).toEqual({});
    expect(view).toMatchObject({ jurisdiction: 'US-CA', reference: 'DSAR-1A2B3C4D', atRiskDays: 14 });
  });

  it('names every field it cannot take, and applies none of them', () => {
    const form = { ...formOfView(EMPTY_VIEW, null), jurisdiction: 'Germany', reference: 'DSAR-12', atRiskDays: '-3', receivedFrom: '2026-02-30', identity: 'x'.repeat(513) };
    expect(Object.keys(viewOfForm(form).errors).sort()).toEqual(['atRiskDays', 'identity', 'jurisdiction', 'receivedFrom', 'reference']);
  });

  it('keeps the person searched for apart from the view, so that it never reaches the address', () => {
    const form = { ...formOfView(EMPTY_VIEW, null), identity: ' +44 7700 900123 ', identityKind: 'phone' as const, sortBy: 'dueAt' };
    const { view, identity } = viewOfForm(form);
    expect(identity).toEqual({ value: '+44 7700 900123', kind: 'phone' });
    expect(searchOfView(view)).toBe('?sortBy=dueAt');
  });

  it('fills the identity fields from the search in memory', () => {
    expect(formOfView(EMPTY_VIEW, { value: 'ac-1234', kind: 'account' })).toMatchObject({ identity: 'ac-1234', identityKind: 'account' });
  });
});
