import { IDEMPOTENCY_ERRORS } from './route-errors';
import { routeTableProblems } from './route-table-checks';
import type { GatewayRoute } from './route-types';
import { ROUTES } from './routes';

const commands = ROUTES.filter((r) => r.method === 'POST' || r.method === 'PUT');
const name = (r: GatewayRoute) => `${r.method} ${r.path}`;

describe('an Idempotency-Key on every POST and PUT of the route table', () => {
  it('each honours one and lists its errors, or says why not; every upload honours one', () => {
    expect(commands.length).toBeGreaterThan(30);
    const wrong = commands.filter((r) => (r.idempotencyExempt !== undefined ? r.idempotencyExempt.trim().length < 20 : !IDEMPOTENCY_ERRORS.every((e) => r.errors.includes(e))));
    expect(wrong.map(name)).toEqual([]);
    expect(commands.filter((r) => r.upload && r.idempotencyExempt !== undefined).map(name)).toEqual([]);
    expect(routeTableProblems(ROUTES)).toEqual([]);
  });

  it('the exempt routes are these, each for its reason', () => {
    expect(commands.filter((r) => r.idempotencyExempt !== undefined).map(name)).toEqual([
      'POST /requests/:id/requestor/reveal',
      'POST /requests/:id/audit/verify',
      'POST /requests/:id/delivery/address/verify',
      'POST /requests/:id/delivery/step-up/challenge',
      'POST /portal/deliveries/:linkId/code',
      'POST /tasks/:taskId/claim',
      'POST /tasks/:taskId/heartbeat',
      'POST /tasks/:taskId/answer',
      'POST /webhooks/inbound/mail',
      'POST /webhooks/inbound/chat',
    ]);
  });

  it('the table refuses a POST or PUT that neither lists the errors nor says why, a reason without words, and an exemption of a GET', () => {
    const upload = commands.find((r) => r.upload)!;
    const get = ROUTES.find((r) => r.method === 'GET')!;
    const table: GatewayRoute[] = [
      { ...upload, path: '/t/silent', errors: upload.errors.filter((e) => !IDEMPOTENCY_ERRORS.includes(e)) },
      { ...upload, path: '/t/blank', errors: upload.errors.filter((e) => !IDEMPOTENCY_ERRORS.includes(e)), idempotencyExempt: ' ' },
      { ...upload, path: '/t/both', idempotencyExempt: 'It changes nothing at all, ever.' },
      { ...get, path: '/t/get', idempotencyExempt: 'It changes nothing at all, ever.' },
    ];
    expect(routeTableProblems(table)).toEqual([
      expect.stringContaining(`${upload.method} /t/silent: a POST or PUT honours an Idempotency-Key`),
      expect.stringContaining(`${upload.method} /t/blank: a POST or PUT honours an Idempotency-Key`),
      expect.stringContaining(`${upload.method} /t/both: a POST or PUT honours an Idempotency-Key`),
      'GET /t/get: only a POST or PUT takes an Idempotency-Key to be exempt from',
    ]);
  });
});
