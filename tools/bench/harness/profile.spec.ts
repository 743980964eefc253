import { join } from 'node:path';
import { placeOf, summarize, type CpuProfile } from './profile';
import { REPO_ROOT } from './util';

const file = (path: string): string => `file://${join(REPO_ROOT, path)}`;

/** root → handler (app) → typeorm query → socket write (node internals); root → idle; root → GC. */
const profile: CpuProfile = {
  startTime: 0,
  endTime: 10_000,
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 5, 6] },
    { id: 2, callFrame: { functionName: 'create', url: file('libs/services/lifecycle-clock/src/api/requests.controller.ts'), lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: 'query', url: file('node_modules/typeorm/driver/postgres/PostgresQueryRunner.js'), lineNumber: 0 }, children: [4] },
    { id: 4, callFrame: { functionName: 'writev', url: 'node:internal/stream_base_commons', lineNumber: 0 } },
    { id: 5, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    { id: 6, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
  ],
  // One sample a millisecond (deltas in µs): 1 ms in the handler, 2 in typeorm, 3 in the write, 4 idle, 1 GC.
  samples: [2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6],
  timeDeltas: Array.from({ length: 11 }, () => 1000),
};

describe('profile summary', () => {
  it('places code by package, workspace project, Node module or V8 entry', () => {
    expect(placeOf(file('node_modules/@nestjs/core/router/router-proxy.js'), 'x')).toBe('pkg:@nestjs/core');
    expect(placeOf(file('node_modules/pg/lib/client.js'), 'x')).toBe('pkg:pg');
    expect(placeOf(file('libs/services/audit-ledger/src/x.ts'), 'x')).toBe('app:libs/services/audit-ledger');
    expect(placeOf(file('libs/platform/http/src/x.ts'), 'x')).toBe('app:libs/platform');
    expect(placeOf('node:internal/timers', 'x')).toBe('node:internal');
    expect(placeOf('', '(garbage collector)')).toBe('(garbage collector)');
  });

  it('sums self time by place and function, busy time by the innermost layer, idle left out', () => {
    const s = summarize(profile, 0);
    expect({ total: s.totalMs, busy: s.busyMs }).toEqual({ total: 11, busy: 7 });
    expect(s.byPlace).toEqual([
      ['(idle)', 4],
      ['node:internal', 3],
      ['pkg:typeorm', 2],
      ['app:libs/services/lifecycle-clock', 1],
      ['(garbage collector)', 1],
    ]);
    expect(s.byLayer).toEqual([
      ['typeorm', 5],
      ['other', 2],
    ]);
    expect(s.byFunction[1]).toEqual(['writev node:internal/stream_base_commons:1', 3]);
  });

  it('leaves out the first seconds asked', () => {
    const s = summarize(profile, 1.5);
    expect(s.byPlace.find(([p]) => p === 'app:libs/services/lifecycle-clock')).toBeUndefined();
    expect(s.busyMs).toBe(6);
  });
});
