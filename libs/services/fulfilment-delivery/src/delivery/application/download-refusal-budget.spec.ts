import { deliverySettingsFrom } from '../delivery-settings';
import { DownloadRefusalBudget } from './download-refusal-budget';

describe('the budget of refused downloads', () => {
  it('gives each caller DOWNLOAD_REFUSALS_PER_HOUR refusals per request, then the seconds until the hour is over', async () => {
    const budget = new DownloadRefusalBudget(deliverySettingsFrom({ DOWNLOAD_REFUSALS_PER_HOUR: 2 }));
    expect(await budget.spend('t', 'r1', 'key:a')).toBeUndefined();
    expect(await budget.spend('t', 'r1', 'key:a')).toBeUndefined();
    const wait = await budget.spend('t', 'r1', 'key:a');
    expect(wait).toBeGreaterThan(3_590);
    expect(wait).toBeLessThanOrEqual(3_600);
    // Another caller, another request, another tenant: budgets of their own.
    expect(await budget.spend('t', 'r1', 'key:b')).toBeUndefined();
    expect(await budget.spend('t', 'r2', 'key:a')).toBeUndefined();
    expect(await budget.spend('u', 'r1', 'key:a')).toBeUndefined();
  });

  it('defaults to 10 an hour', async () => {
    const budget = new DownloadRefusalBudget();
    expect(budget.perHour).toBe(10);
    for (let i = 0; i < 10; i++) expect(await budget.spend('t', 'r', 'key:a')).toBeUndefined();
    expect(await budget.spend('t', 'r', 'key:a')).toBeGreaterThan(0);
  });
});
