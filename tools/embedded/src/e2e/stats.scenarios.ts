import { tmpdir } from 'node:os';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { ManualClock } from '@dsar/platform/clock';
import { waitFor } from '@dsar/platform/testing';
import { ApiClient, type ApiResponse, intake, ownPerson } from './api-client';
import { runCli } from './cli-process';
import { KEYS } from './gateway-intake.scenarios';
import { TEST_GATEWAY_SETTINGS, type TestSystem } from './systems';

type Json = Record<string, any>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Where the scenarios' clock stands, frozen: every figure is counted at this moment, so each is exact. */
export const STATS_NOW = '2026-03-10T12:00:00.000Z';
const NOW = Date.parse(STATS_NOW);
export const statsClock = () => new ManualClock(STATS_NOW, { running: false });

/** Keys of the scenarios beside the usual ones: a connector of tenant A (no `requests:read`), and an admin of tenant B's workspace `north`. */
const STATS_KEYS = {
  connectorA: { token: 'tenant-a-stats-connector-key-0000', tenantId: 'tenant-a', roles: ['connector'] },
  northAdminB: { token: 'tenant-b-north-stats-admin-key-00', tenantId: 'tenant-b', workspaceId: 'north', roles: ['admin'] },
};

/** The settings of the scenarios' systems: the keys, and no rate limit (the scenarios make their requests in bursts). */
export const STATS_SETTINGS = {
  DSAR_API_KEYS: [...TEST_GATEWAY_SETTINGS.DSAR_API_KEYS, ...apiKeyListSchema.parse(Object.values(STATS_KEYS))],
  RATE_LIMIT_PER_MINUTE: 0,
};

const at = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString();

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({ status, type: expect.stringContaining('application/problem+json'), code });
}

/**
 * Issue [console] item 5 end to end through the gateway: the tenant's figures (`GET /stats/requests`,
 * `GET /stats/tasks`, docs/lifecycle.md#figures and docs/data-systems.md#figures) of requests and tasks the scenarios
 * made in known states, counted exactly; another tenant sees none of them, a key confined to a workspace sees its
 * own, a bad query is a 400 problem and a role without `requests:read` a 403.
 */
export function statsScenarios(getSystem: () => TestSystem): void {
  const clock = () => getSystem().clock;
  const as = (token: string) => new ApiClient(getSystem().gatewayUrl, token);
  let admin: ApiClient;
  let north: ApiClient;
  beforeAll(() => {
    admin = as(KEYS.adminA.token);
    north = as(KEYS.northAdminA.token);
  });

  /** A request of Germany of a person of its own, whose letter arrived `daysAgo` days before now (on the clock as it stands); its id. */
  async function received(daysAgo: number, by: ApiClient = admin): Promise<string> {
    const person = ownPerson();
    const receivedAt = new Date(clock().now().getTime() - daysAgo * DAY).toISOString();
    const res = await by.post('/requests', intake({ requestor: person.requestor }, { contact: person.contact, receivedAt }));
    expect(res.status).toBe(202);
    return res.body.id as string;
  }

  const step = async (id: string, path: string, body: Json = {}, by: ApiClient = admin) => expect((await by.post(`/requests/${id}${path}`, body)).status).toBe(202);

  /** Runs `work` with the clock `daysAgo` days before now, then puts it back. */
  const back = <T>(daysAgo: number, work: () => Promise<T>) => clock().runAt(at(daysAgo), work);

  async function detail(id: string): Promise<Json> {
    const res = await admin.get(`/requests/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Waits until the request is in `status` (a verification request reaches lifecycle-clock through the verification service). */
  const inStatus = (id: string, status: string) => waitFor(`request ${id} ${status}`, async () => (await detail(id)).status === status, { timeoutMs: 20_000 });

  const stats = async (by: ApiClient, query = ''): Promise<Json> => {
    const res = await by.get(`/stats/requests${query}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ asOf: STATS_NOW }) });
    return res.body;
  };

  describe('the figures of the requests', () => {
    /** Each request the scenarios made, by what it stands for. */
    const made: Record<string, string> = {};

    beforeAll(async () => {
      expect(clock().now().toISOString()).toBe(STATS_NOW);
      // Open requests of the whole tenant: one new, one due this week, one overdue since this week, one overdue for long.
      made.fresh = await received(0);
      made.dueSoon = await received(26);
      await step(made.dueSoon, '/acknowledgements');
      made.overdueThisWeek = await received(33);
      await step(made.overdueThisWeek, '/verification/request', { method: 'document' });
      await inStatus(made.overdueThisWeek, 'verification_pending');
      made.overdueLong = await received(60);
      await step(made.overdueLong, '/clarifications/request', { message: 'Which of your accounts do you mean?' });
      // Open requests of workspace north: one due this week, one in progress with a month to go.
      made.northDueSoon = await received(27, north);
      made.northFresh = await received(0, north);
      await step(made.northFresh, '/acknowledgements', {}, north);

      // Decided in the last 30 days, received 8, 4 and 20 days before their decision, and north's after 3 days.
      for (const [name, days, decision] of [
        ['closed8', 8, '/closures'],
        ['refused4', 4, '/refusals'],
        ['closed20', 20, '/closures'],
      ] as const) {
        made[name] = await received(days);
        await step(made[name], decision);
      }
      made.northClosed3 = await received(3, north);
      await step(made.northClosed3, '/closures', {}, north);
      // Refused 5 days after its receipt (4 days ago), closed today: its decision is the refusal.
      made.refusedThenClosed = await back(9, () => received(0));
      await back(4, () => step(made.refusedThenClosed, '/refusals'));
      await step(made.refusedThenClosed, '/closures');
      // Decided 40 days ago, 30 days after its receipt: in a window of 45 days, not of 30.
      made.closedLongAgo = await back(70, () => received(0));
      await back(40, () => step(made.closedLongAgo, '/closures'));
    });

    it('the requests stand where the scenarios put them (the premises of the figures)', async () => {
      const due = async (name: string) => Date.parse((await detail(made[name])).dueAt as string);
      expect(await due('fresh')).toBeGreaterThan(NOW + 7 * DAY);
      expect(await due('northFresh')).toBeGreaterThan(NOW + 7 * DAY);
      for (const name of ['dueSoon', 'northDueSoon']) {
        const left = (await due(name)) - NOW;
        expect({ name, thisWeek: left > 0 && left <= 7 * DAY }).toEqual({ name, thisWeek: true });
      }
      const overdueBy = NOW - (await due('overdueThisWeek'));
      expect(overdueBy > 0 && overdueBy < 7 * DAY).toBe(true);
      expect(NOW - (await due('overdueLong'))).toBeGreaterThan(7 * DAY);
      expect((await detail(made.overdueLong)).status).toBe('clarification_pending');
      expect((await detail(made.refusedThenClosed)).status).toBe('closed');
    });

    it('counts the whole tenant: open by status, at risk, overdue, this week, and the median time to close over 30 days', async () => {
      expect(await stats(admin)).toEqual({
        asOf: STATS_NOW,
        open: { total: 6, byStatus: { received: 2, in_progress: 2, clarification_pending: 1, verification_pending: 1 } },
        atRisk: { days: 7, count: 4 },
        overdue: { count: 2 },
        dueThisWeek: { from: STATS_NOW, to: at(-7), count: 2 },
        overdueThisWeek: { from: at(7), to: STATS_NOW, count: 1 },
        // 3, 4, 5 (the refusal, not the closure 9 days after receipt), 8 and 20 days.
        timeToClose: { windowDays: 30, from: at(30), to: STATS_NOW, closed: 5, medianSeconds: 5 * 86_400 },
      });
    });

    it('takes the median over the window asked for', async () => {
      // 3, 4, 5, 8, 20 and 30 days: the median is halfway between 5 and 8.
      expect((await stats(admin, '?windowDays=45')).timeToClose).toEqual({ windowDays: 45, from: at(45), to: STATS_NOW, closed: 6, medianSeconds: 6.5 * 86_400 });
      // Decided today only (the refusal 4 days ago is out): 3, 4, 8 and 20 days.
      expect((await stats(admin, '?windowDays=1')).timeToClose).toEqual({ windowDays: 1, from: at(1), to: STATS_NOW, closed: 4, medianSeconds: 6 * 86_400 });
    });

    it('agrees with the queue views the figures link to', async () => {
      const total = async (query: string) => {
        const res = await admin.get(`/requests?${query}`);
        expect(res.status).toBe(200);
        return res.body.total as number;
      };
      const figures = await stats(admin);
      expect({
        received: await total('status=received'),
        inProgress: await total('status=in_progress'),
        atRisk: await total('atRiskDays=7'),
        overdue: await total('atRiskDays=0'),
      }).toEqual({ received: figures.open.byStatus.received, inProgress: figures.open.byStatus.in_progress, atRisk: figures.atRisk.count, overdue: figures.overdue.count });
    });

    it('counts only its own workspace for a key confined to one, whatever its role', async () => {
      const own = {
        asOf: STATS_NOW,
        open: { total: 2, byStatus: { received: 1, in_progress: 1, clarification_pending: 0, verification_pending: 0 } },
        atRisk: { days: 7, count: 1 },
        overdue: { count: 0 },
        dueThisWeek: { from: STATS_NOW, to: at(-7), count: 1 },
        overdueThisWeek: { from: at(7), to: STATS_NOW, count: 0 },
        timeToClose: { windowDays: 30, from: at(30), to: STATS_NOW, closed: 1, medianSeconds: 3 * 86_400 },
      };
      expect(await stats(north)).toEqual(own);
      expect(await stats(as(KEYS.workspaceA.token))).toEqual(own);
    });

    it('shows another tenant none of them', async () => {
      expect(await stats(as(KEYS.queueC.token))).toEqual({
        asOf: STATS_NOW,
        open: { total: 0, byStatus: { received: 0, in_progress: 0, clarification_pending: 0, verification_pending: 0 } },
        atRisk: { days: 7, count: 0 },
        overdue: { count: 0 },
        dueThisWeek: { from: STATS_NOW, to: at(-7), count: 0 },
        overdueThisWeek: { from: at(7), to: STATS_NOW, count: 0 },
        timeToClose: { windowDays: 30, from: at(30), to: STATS_NOW, closed: 0, medianSeconds: null },
      });
    });

    it('gives the figures to every role that reads requests, and refuses the others (403)', async () => {
      for (const key of [KEYS.intakeA, KEYS.auditorA, KEYS.operatorA]) expect((await stats(as(key.token))).open.total).toBe(6);
      expectProblem(await as(STATS_KEYS.connectorA.token).get('/stats/requests'), 403, 'SVC-BE-1302');
      expectProblem(await as(STATS_KEYS.connectorA.token).get('/stats/tasks'), 403, 'SVC-BE-1302');
      expectProblem(await admin.get('/stats/requests', { token: null }), 401, 'SVC-BE-1301');
    });

    it('prints the same figures with the CLI (dsar stats requests, dsar stats tasks)', async () => {
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DSAR_BASE_URL: `${getSystem().gatewayUrl}/api/v1`, DSAR_TOKEN: KEYS.workspaceA.token };
      const requests = await runCli(['stats', 'requests', '--window-days', '45', '-o', 'json'], { cwd: tmpdir(), env });
      expect({ code: requests.code, data: requests.json?.data }).toEqual({ code: 0, data: await stats(north, '?windowDays=45') });
      const tasks = await runCli(['stats', 'tasks', '-o', 'json'], { cwd: tmpdir(), env });
      expect({ code: tasks.code, data: tasks.json?.data }).toEqual({ code: 0, data: (await north.get('/stats/tasks')).body });
    });

    it('refuses a bad query with a 400 problem naming it', async () => {
      for (const query of ['windowDays=0', 'windowDays=367', 'windowDays=030', 'windowDays=7.5', 'windowDays=week', 'days=7']) {
        const res = await admin.get(`/stats/requests?${query}`);
        expectProblem(res, 400, 'SVC-BE-1102');
        expect({ query, errors: (res.body.errors as Json[]).length > 0 }).toEqual({ query, errors: true });
      }
      expectProblem(await admin.get('/stats/tasks?state=queued'), 400, 'SVC-BE-1102');
    });
  });

  describe('the figures of the data-system tasks', () => {
    let adminB: ApiClient;
    let northB: ApiClient;
    const tasksOf = async (id: string): Promise<Json[]> => {
      const res = await adminB.get(`/requests/${id}/tasks`);
      expect(res.status).toBe(200);
      return res.body.items as Json[];
    };
    const taskStats = async (by: ApiClient): Promise<Json> => {
      const res = await by.get('/stats/tasks');
      expect(res.status).toBe(200);
      return res.body;
    };
    const noTasks = { waiting: 0, queued: 0, claimed: 0, complete: 0, not_found: 0, skipped: 0, error: 0, action_required: 0, blocked: 0, cancelled: 0 };

    beforeAll(async () => {
      adminB = as(KEYS.adminB.token);
      northB = as(STATS_KEYS.northAdminB.token);
      // Three pull systems of tenant B, due 1, 2 and 400 hours after their tasks are made; no connector claims them.
      for (const [key, displayName, expectedHours] of [
        ['crm', 'Customer CRM', 1],
        ['warehouse', 'Data warehouse', 2],
        ['archive', 'Paper archive', 400],
      ] as const) {
        const res = await adminB.call('PUT', `/api/v1/data-systems/${key}`, {
          json: {
            displayName,
            owner: { email: `${key}-owners@tenant-b.example` },
            actions: ['access'],
            identityTypes: ['email'],
            mode: 'pull',
            sla: { expectedHours, timeoutHours: 500, onTimeout: 'pause' },
          },
        });
        expect(res.status).toBe(201);
      }
    });

    it("counts the tasks by state and the open ones past their due date per system, in the caller's scope", async () => {
      // Two requests of the whole tenant and one of workspace north, in progress: three tasks each, made now.
      const ids = [await received(0, adminB), await received(0, adminB), await received(0, northB)];
      for (const id of ids) await step(id, '/acknowledgements', {}, adminB);
      for (const id of ids) await waitFor(`the tasks of ${id}`, async () => (await tasksOf(id)).filter((t) => t.state === 'queued').length === 3, { timeoutMs: 30_000 });
      expect(await taskStats(adminB)).toEqual({ asOf: STATS_NOW, byState: { ...noTasks, queued: 9 }, open: 9, pastDue: { count: 0, systems: [] } });

      // One task settled by an operator: no longer open, not past due whenever.
      const skipped = (await tasksOf(ids[0])).find((t) => t.systemKey === 'crm')!;
      expect((await adminB.post(`/requests/${ids[0]}/tasks/${skipped.id}/skip`, { reason: 'This person has no CRM record.' })).status).toBe(202);

      // Three hours on: the CRM's tasks are an hour past due, the warehouse's two hours; the archive's are not due.
      await clock().runAt(NOW + 3 * HOUR, async () => {
        const later = new Date(NOW + 3 * HOUR).toISOString();
        expect(await taskStats(adminB)).toEqual({
          asOf: later,
          byState: { ...noTasks, queued: 8, skipped: 1 },
          open: 8,
          pastDue: {
            count: 5,
            systems: [
              { systemKey: 'crm', displayName: 'Customer CRM', deleted: false, count: 2, oldestDueAt: new Date(NOW + HOUR).toISOString() },
              { systemKey: 'warehouse', displayName: 'Data warehouse', deleted: false, count: 3, oldestDueAt: new Date(NOW + 2 * HOUR).toISOString() },
            ],
          },
        });
        expect(await taskStats(northB)).toEqual({
          asOf: later,
          byState: { ...noTasks, queued: 3 },
          open: 3,
          pastDue: {
            count: 2,
            systems: [
              { systemKey: 'crm', displayName: 'Customer CRM', deleted: false, count: 1, oldestDueAt: new Date(NOW + HOUR).toISOString() },
              { systemKey: 'warehouse', displayName: 'Data warehouse', deleted: false, count: 1, oldestDueAt: new Date(NOW + 2 * HOUR).toISOString() },
            ],
          },
        });
        // Tenant A has no data system: it sees none of tenant B's tasks.
        expect(await taskStats(admin)).toEqual({ asOf: later, byState: noTasks, open: 0, pastDue: { count: 0, systems: [] } });
      });
    });
  });
}
