import type { DataSystemView } from '@dsar/contracts';
import { dataSystemBody, dataSystemFormErrors, dataSystemPath, emptyDataSystemForm, formOfDataSystem, listOf, toggled } from './data-system-form';

const valid = { ...emptyDataSystemForm(), key: 'billing-ledger', displayName: 'Billing ledger', ownerEmail: 'owners@example.test', actions: ['access' as const, 'erasure' as const] };

describe('the data-system form', () => {
  it('makes the whole PUT body of valid values, lists trimmed and once each', () => {
    expect(dataSystemFormErrors(valid)).toEqual([]);
    expect(dataSystemBody({ ...valid, dataCategories: ' invoices, payments ,\ninvoices, ', after: 'crm' })).toEqual({
      displayName: 'Billing ledger',
      owner: { email: 'owners@example.test' },
      actions: ['access', 'erasure'],
      identityTypes: ['email'],
      dataCategories: ['invoices', 'payments'],
      after: ['crm'],
      mode: 'manual',
      sla: { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause' },
      paused: false,
      required: true,
    });
  });

  it('sends the webhook only with mode webhook, and asks for its secret', () => {
    const webhook = { ...valid, mode: 'webhook' as const, webhookUrl: 'https://hooks.example.test/dsar' };
    expect(dataSystemFormErrors(webhook).map((e) => e.field)).toEqual(['webhookSecret']);
    const secret = `whsec_${'A'.repeat(32)}`;
    expect(dataSystemBody({ ...webhook, webhookSecret: secret }).webhook).toEqual({ url: 'https://hooks.example.test/dsar', secret });
    expect(dataSystemBody({ ...valid, webhookUrl: 'https://left.over.test' }).webhook).toBeUndefined();
  });

  it('names each field the API would refuse', () => {
    const errors = dataSystemFormErrors({ ...emptyDataSystemForm(), key: 'Bad Key', identityTypes: [], expectedHours: '10', timeoutHours: '5' });
    expect(errors.map((e) => e.field)).toEqual(['key', 'displayName', 'ownerEmail', 'actions', 'identityTypes', 'timeoutHours']);
    expect(dataSystemFormErrors({ ...valid, expectedHours: '0', timeoutHours: '1e3' }).map((e) => e.field)).toEqual(['expectedHours', 'timeoutHours']);
    expect(dataSystemFormErrors({ ...valid, after: 'crm, billing-ledger' }).map((e) => e.field)).toEqual(['after']);
    expect(dataSystemFormErrors({ ...valid, ownerEmail: '', ownerSlack: '#privacy' })).toEqual([]);
  });

  it('opens a stored system with its definition, never its secret', () => {
    const stored: DataSystemView = {
      key: 'crm',
      displayName: 'CRM',
      owner: { slackChannel: '#crm' },
      actions: ['access'],
      identityTypes: ['email', 'account_id'],
      dataCategories: ['contact_details', 'orders'],
      after: [],
      mode: 'webhook',
      sla: { expectedHours: 24, timeoutHours: 48, onTimeout: 'skip' },
      paused: true,
      required: false,
      webhook: { url: 'https://crm.example.test/hook', secretSet: true },
      version: 3,
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-03T10:00:00.000Z',
    };
    expect(formOfDataSystem(stored)).toMatchObject({
      key: 'crm',
      ownerSlack: '#crm',
      ownerEmail: '',
      dataCategories: 'contact_details, orders',
      webhookUrl: 'https://crm.example.test/hook',
      webhookSecret: '',
      expectedHours: '24',
      onTimeout: 'skip',
      paused: true,
      required: false,
    });
  });

  it('splits, toggles and encodes', () => {
    expect(listOf('')).toEqual([]);
    expect(toggled(['access', 'erasure', 'opt_out'], ['opt_out'], 'access', true)).toEqual(['access', 'opt_out']);
    expect(toggled(['access', 'erasure', 'opt_out'], ['access', 'opt_out'], 'access', false)).toEqual(['opt_out']);
    expect(dataSystemPath('a/b')).toBe('/data-systems/a%2Fb');
  });
});
