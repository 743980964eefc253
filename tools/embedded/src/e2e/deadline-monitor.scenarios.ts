import { waitFor } from '@dsar/platform/testing';
import { DeadlineMonitor } from '@dsar/services/lifecycle-clock';
import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

type TimelineEvent = { eventType: string; payload: Record<string, unknown> };

/**
 * The deadline monitor end to end: requests captured through the gateway,
 * the system's clock (frozen: `{ clock: new ManualClock(…, { running: false }) }`) moved by the test, alerts
 * read back from the timeline. The system must hold only these scenarios' requests and run no scheduled
 * scans (DEADLINE_MONITOR_INTERVAL_MS 0), so that scan counts are exact.
 */
export function deadlineMonitorScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  let monitor: DeadlineMonitor;
  const ids: Record<string, string> = {};
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    monitor = getSystem().services.get('lifecycle-clock')!.app.get(DeadlineMonitor);
  });

  async function capture(name: string, jurisdiction: string, receivedAt: string, requestType = 'access'): Promise<Record<string, any>> {
    const created = await api.post('/requests/capture', intake({ jurisdiction, requestType }, { receivedAt }));
    expect(created.status).toBe(202);
    ids[name] = created.body.id;
    return (await api.get(`/requests/${created.body.id}`)).body;
  }

  /** The monitor's alerts on a request's timeline, as `deadline:kind:threshold`. */
  async function alertsOf(name: string): Promise<string[]> {
    const events = (await api.get(`/requests/${ids[name]}/timeline`)).body.events as TimelineEvent[];
    return events
      .filter((e) => e.eventType.startsWith('request_deadline_') && e.eventType !== 'request_deadline_extended')
      .map((e) => `${e.payload.deadline}:${e.eventType === 'request_deadline_breached' ? 'breached' : `${e.payload.thresholdDays}d`}`);
  }

  async function expectAlerts(name: string, expected: string[]): Promise<void> {
    await waitFor(`${name}'s alerts ${expected.join(', ')}`, async () => JSON.stringify(await alertsOf(name)) === JSON.stringify(expected));
  }

  async function scanAt(iso: string): Promise<number> {
    getSystem().clock.set(iso);
    return monitor.scan();
  }

  it('sets up: DE due Tue 7 Apr 2026, a closed DE twin, US-CA with an acknowledgement deadline, GB paused for a fee', async () => {
    getSystem().clock.set('2026-03-10T12:00:00Z');
    const de = await capture('de', 'DE', '2026-03-03T10:00:00Z');
    expect(de.dueAt).toBe('2026-04-07T21:59:59.999Z');
    await capture('closed', 'DE', '2026-03-03T10:00:00Z');
    expect((await api.post(`/requests/${ids.closed}/closures`, {})).status).toBe(202);
    const ca = await capture('ca', 'US-CA', '2026-03-02T18:00:00Z');
    // Ten business days from Mon 2 Mar (receipt day not counted): Mon 16 Mar, end of day in Los Angeles.
    expect(ca.acknowledgementDueAt).toBe('2026-03-17T06:59:59.999Z');
    await capture('gb', 'GB', '2026-03-03T10:00:00Z');
    expect((await api.post(`/requests/${ids.gb}/clock/pauses`, { reason: 'fee', at: '2026-03-10T10:00:00Z' })).status).toBe(202);
  });

  it('nothing is near its deadline on 4 March', async () => {
    expect(await scanAt('2026-03-04T00:00:00Z')).toBe(0);
  });

  it('10 March: the CA acknowledgement is within 7 days; a second scan emits nothing more', async () => {
    expect(await scanAt('2026-03-10T12:00:00Z')).toBe(1);
    expect(await monitor.scan()).toBe(0);
    await expectAlerts('ca', ['acknowledgement:7d']);
    const [event] = ((await api.get(`/requests/${ids.ca}/timeline`)).body.events as TimelineEvent[]).filter((e) => e.eventType === 'request_deadline_approaching');
    expect(event.payload).toMatchObject({ deadline: 'acknowledgement', thresholdDays: 7, dueAt: '2026-03-17T06:59:59.999Z', detectedAt: '2026-03-10T12:00:00.000Z', status: 'received' });
  });

  it('31 March: the acknowledgement was missed (the 2-day warning it skipped is not sent late)', async () => {
    expect(await scanAt('2026-03-31T12:00:00Z')).toBe(1);
    await expectAlerts('ca', ['acknowledgement:7d', 'acknowledgement:breached']);
  });

  it('1 April: the DE request is within 7 days, its closed twin is not watched', async () => {
    expect(await scanAt('2026-04-01T00:00:00Z')).toBe(1);
    await expectAlerts('de', ['response:7d']);
  });

  it('6 April: within 2 days; acknowledging the CA request ends its acknowledgement alerts', async () => {
    expect((await api.post(`/requests/${ids.ca}/acknowledgements`, {})).status).toBe(202);
    expect(await scanAt('2026-04-06T12:00:00Z')).toBe(1);
    await expectAlerts('de', ['response:7d', 'response:2d']);
  });

  it('8 April: the DE deadline is breached, once', async () => {
    expect(await scanAt('2026-04-08T00:00:00Z')).toBe(1);
    expect(await scanAt('2026-04-09T00:00:00Z')).toBe(0);
    await expectAlerts('de', ['response:7d', 'response:2d', 'response:breached']);
  });

  it('20 April: the CA response deadline (Tue 14 Apr) passed unseen: only the breach is sent; a clock stopped for a fee cannot breach', async () => {
    expect(await scanAt('2026-04-20T00:00:00Z')).toBe(1);
    await expectAlerts('ca', ['acknowledgement:7d', 'acknowledgement:breached', 'response:breached']);
    await expectAlerts('gb', []);
    await expectAlerts('closed', []);
  });
}
