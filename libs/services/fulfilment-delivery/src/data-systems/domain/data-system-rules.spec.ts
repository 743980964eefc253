import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { dataSystemPut, type DataSystemPut } from '@dsar/contracts';
import { cycleThrough, definitionOf, definitionProblems, dependantsOf, type LiveSystems, viewOf } from './data-system-rules';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function body(overrides: Partial<DataSystemPut> = {}): DataSystemPut {
  return dataSystemPut.parse({ displayName: 'CRM', owner: { email: 'crm-owner@example.com' }, actions: ['access', 'erasure'], identityTypes: ['email'], mode: 'push', ...overrides });
}

const allow = { allowHttp: false };

describe('data system rules', () => {
  describe('definitionOf', () => {
    it('fills the defaults of the design and keeps no secret', () => {
      expect(definitionOf(body())).toEqual({
        displayName: 'CRM',
        owner: { email: 'crm-owner@example.com' },
        actions: ['access', 'erasure'],
        identityTypes: ['email'],
        dataCategories: [],
        after: [],
        mode: 'push',
        sla: { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause' },
        paused: false,
        required: true,
        webhook: null,
      });
      const webhook = definitionOf(body({ mode: 'webhook', webhook: { url: 'https://crm.example.com/dsar', secret: SECRET } }));
      expect(webhook.webhook).toEqual({ url: 'https://crm.example.com/dsar' });
      expect(JSON.stringify(webhook)).not.toContain('whsec_');
    });

    it('shows a webhook system with its secret set, never the secret', () => {
      const at = new Date('2026-12-01T10:00:00Z');
      const view = viewOf({ key: 'crm', version: 3, definition: definitionOf(body({ mode: 'webhook', webhook: { url: 'https://x.example/h', secret: SECRET } })), createdAt: at, updatedAt: at });
      expect(view).toMatchObject({ key: 'crm', version: 3, webhook: { url: 'https://x.example/h', secretSet: true }, createdAt: at.toISOString() });
      expect(JSON.stringify(view)).not.toContain('whsec_');
    });
  });

  describe('definitionProblems', () => {
    const others: LiveSystems = new Map([
      ['source', []],
      ['warehouse', ['source']],
    ]);

    it('accepts a definition that holds together', () => {
      expect(definitionProblems('crm', body({ after: ['source', 'warehouse'] }), others, allow)).toEqual([]);
    });

    it('refuses an after that names no live system, or the system itself', () => {
      expect(definitionProblems('crm', body({ after: ['source', 'ghost', 'crm'] }), others, allow)).toEqual([
        { field: 'after[1]', message: 'names no data system of the tenant: ghost' },
        { field: 'after[2]', message: 'a system cannot come after itself' },
      ]);
    });

    it('refuses an after that closes a cycle, naming it', () => {
      // source would come after warehouse, which comes after source.
      expect(definitionProblems('source', body({ after: ['warehouse'] }), new Map([['warehouse', ['source']]]), allow)).toEqual([
        { field: 'after', message: 'makes a cycle: source → warehouse → source' },
      ]);
    });

    it('refuses a webhook URL that does not parse as a URL', () => {
      expect(definitionProblems('crm', body({ mode: 'webhook', webhook: { url: 'http://\u2e2b\uf26e', secret: SECRET } }), others, allow)).toEqual([
        { field: 'webhook.url', message: 'is not a valid URL' },
      ]);
    });

    it('refuses an owner that names neither an email address nor a Slack channel', () => {
      expect(definitionProblems('crm', body({ owner: {} }), others, allow)).toEqual([{ field: 'owner', message: 'must name an email address or a Slack channel' }]);
      expect(definitionProblems('crm', body({ owner: { slackChannel: '#privacy' } }), others, allow)).toEqual([]);
    });

    it('requires webhook settings with mode webhook, and only then', () => {
      expect(definitionProblems('crm', body({ mode: 'webhook' }), others, allow)).toEqual([{ field: 'webhook', message: 'is required with mode webhook (url and secret)' }]);
      expect(definitionProblems('crm', body({ mode: 'pull', webhook: { url: 'https://x.example/h', secret: SECRET } }), others, allow)).toEqual([
        { field: 'webhook', message: 'is only for mode webhook, not pull' },
      ]);
      expect(definitionProblems('crm', body({ mode: 'webhook', webhook: { url: 'https://x.example/h', secret: SECRET } }), others, allow)).toEqual([]);
    });

    it('takes an http webhook URL only where DATA_SYSTEM_WEBHOOK_ALLOW_HTTP allows it', () => {
      const http = body({ mode: 'webhook', webhook: { url: 'http://localhost:9999/h', secret: SECRET } });
      expect(definitionProblems('crm', http, others, allow)).toEqual([{ field: 'webhook.url', message: 'must be an https URL (DATA_SYSTEM_WEBHOOK_ALLOW_HTTP is off)' }]);
      expect(definitionProblems('crm', http, others, { allowHttp: true })).toEqual([]);
    });

    it('refuses a timeout shorter than the expected turnaround', () => {
      expect(definitionProblems('crm', body({ sla: { expectedHours: 48, timeoutHours: 24, onTimeout: 'skip' } }), others, allow)).toEqual([
        { field: 'sla.timeoutHours', message: 'must be at least sla.expectedHours (48)' },
      ]);
      expect(definitionProblems('crm', body({ sla: { expectedHours: 48, timeoutHours: 48, onTimeout: 'skip' } }), others, allow)).toEqual([]);
    });

    it('lists every problem at once', () => {
      const problems = definitionProblems('crm', body({ mode: 'webhook', after: ['ghost'], sla: { expectedHours: 2, timeoutHours: 1, onTimeout: 'pause' } }), others, allow);
      expect(problems.map((p) => p.field)).toEqual(['after[0]', 'webhook', 'sla.timeoutHours']);
    });
  });

  describe('cycleThrough', () => {
    it('finds a long cycle through the system and none elsewhere', () => {
      // a0 after a1 after … after a9; a9 would come after a0.
      const chain: LiveSystems = new Map(Array.from({ length: 9 }, (_, i) => [`a${i + 1}`, i + 1 < 9 ? [`a${i + 2}`] : []] as [string, string[]]));
      expect(cycleThrough('a0', ['a1'], chain)).toBeNull();
      const closed = new Map(chain);
      closed.set('a9', ['a0']);
      expect(cycleThrough('a0', ['a1'], closed)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a0']);
      // A cycle among the others (which the registry never stores) that does not go through a0 is not a0's.
      expect(
        cycleThrough(
          'a0',
          ['x'],
          new Map([
            ['x', ['y']],
            ['y', ['x']],
          ]),
        ),
      ).toBeNull();
    });

    it('stays linear on a wide graph: 20,000 systems, each after the previous two', () => {
      const wide = (n: number) => {
        const graph = new Map<string, string[]>();
        for (let i = 0; i < n; i++) graph.set(`s${i}`, i >= 2 ? [`s${i - 1}`, `s${i - 2}`] : []);
        return { n, graph };
      };
      // Without a cycle, then with the first system leading back to the top: the whole graph is walked each time.
      const walk = ({ n, graph }: { n: number; graph: Map<string, string[]> }) => {
        graph.set('s0', []);
        const none = cycleThrough('top', [`s${n - 1}`], graph);
        graph.set('s0', ['top']);
        return [none, cycleThrough('top', [`s${n - 1}`], graph)] as const;
      };
      const [none, found] = walk(wide(20_000));
      expect(none).toBeNull();
      expect(found?.at(-1)).toBe('top');
      // A walk that revisited shared descendants would take 2^n steps, and never end.
      expectLinearGrowth(wide, walk, 5_000);
    });

    it('cuts a long cycle in the problem it makes', () => {
      const chain = new Map<string, string[]>(Array.from({ length: 30 }, (_, i) => [`c${i}`, [i < 29 ? `c${i + 1}` : 'root']]));
      const [problem] = definitionProblems('root', body({ after: ['c0'] }), chain, allow);
      expect(problem.field).toBe('after');
      expect(problem.message).toContain('…');
      expect(problem.message.split(' → ').length).toBeLessThanOrEqual(12);
    });
  });

  it('dependantsOf: the live systems that come after a system, sorted', () => {
    expect(
      dependantsOf(
        'source',
        new Map([
          ['warehouse', ['source']],
          ['bi', ['warehouse', 'source']],
          ['crm', []],
        ]),
      ),
    ).toEqual(['bi', 'warehouse']);
  });
});
