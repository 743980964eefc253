import { ManualClock } from '@dsar/platform/clock';
import { type HostedService, hostService } from '@dsar/platform/host';
import { waitFor } from '@dsar/platform/testing';
import { DeadlineMonitor, deadlineMonitorSettingsFrom, lifecycleClockServiceWith } from '@dsar/services/lifecycle-clock';
import { ApiClient, intake } from './e2e/api-client';
import { deadlineMonitorScenarios } from './e2e/deadline-monitor.scenarios';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { lifecycleScenarios } from './e2e/lifecycle.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** The monitor scenarios scan by hand, on their own clock: no scheduled scans. */
const monitorSettings = { DEADLINE_MONITOR_INTERVAL_MS: 0, DEADLINE_WARNING_DAYS: [7, 2] };

describe('request workflow in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('lifecycle', lifecycleScenarios);
});

describe('deadline monitor in embedded mode', () => {
  withEmbeddedSystem('deadline-monitor', deadlineMonitorScenarios, monitorSettings, { clock: new ManualClock('2026-03-10T12:00:00Z', { running: false }) });
});

describe('deadline monitor on its schedule', () => {
  const clock = new ManualClock('2026-05-05T00:00:00Z', { running: false });
  withEmbeddedSystem(
    'deadline-schedule',
    (getSystem) => {
      it('scans every interval by itself: a request past its deadline gets its breach alert', async () => {
        const api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
        const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: '2026-05-04T10:00:00Z' }));
        expect(created.status).toBe(202);
        clock.set('2026-07-01T00:00:00Z');
        const breach = await waitFor('the breach alert', async () => {
          const events = (await api.get(`/requests/${created.body.id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
          return events.find((e) => e.eventType === 'request_deadline_breached');
        });
        expect(breach.payload).toMatchObject({ deadline: 'response', dueAt: created.body.dueAt, detectedAt: '2026-07-01T00:00:00.000Z' });
      });
    },
    { DEADLINE_MONITOR_INTERVAL_MS: 100 },
    { clock },
  );
});

describe('request workflow in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(lifecycleScenarios);
});

describe('deadline monitor in distributed mode, with a second replica', () => {
  const clock = new ManualClock('2026-03-10T12:00:00Z', { running: false });
  withDistributedSystem(
    (getSystem, getConfig) => {
      deadlineMonitorScenarios(getSystem);

      describe('a second lifecycle-clock replica on the same database', () => {
        let replica: HostedService;
        beforeAll(async () => {
          replica = await hostService(lifecycleClockServiceWith(deadlineMonitorSettingsFrom({ DEADLINE_WARNING_DAYS: [7, 2] })), { ...getConfig(), HOST: '127.0.0.1', PORT: 0 }, { clock });
          replica.startPublishing();
        });
        afterAll(async () => replica?.close());

        it('two replicas scanning at once emit each alert once', async () => {
          const api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
          const ids: string[] = [];
          clock.set('2026-08-04T09:00:00Z');
          for (let i = 0; i < 20; i++) {
            const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: '2026-08-03T10:00:00Z' }));
            ids.push(created.body.id);
          }
          // Due Thu 3 Sep 2026; 5 days before it every request is within the 7-day threshold.
          clock.set('2026-08-29T12:00:00Z');
          const ours = getSystem().services.get('lifecycle-clock')!.app.get(DeadlineMonitor);
          const theirs = replica.app.get(DeadlineMonitor);
          const [a, b] = await Promise.all([ours.scan(), theirs.scan()]);
          expect(a + b).toBe(20);
          for (const id of ids) {
            await waitFor(`the alert of ${id}`, async () => {
              const events = (await api.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string }>;
              return events.filter((e) => e.eventType === 'request_deadline_approaching').length === 1;
            });
          }
        });
      });
    },
    monitorSettings,
    { clock },
  );
});
