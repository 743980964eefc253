import type { ErasureConfirmation, TaskAnswer } from '@dsar/contracts';
import { type GateTask, overriddenTasks, taskGateRefusal, unconfirmedErasures } from './task-gate';

const confirmation: ErasureConfirmation = { result: 'erased', recordsAffected: 3, categoriesErased: ['contact'], method: 'delete', performedBy: 'job', performedAt: '2026-03-01T00:00:00.000Z' };
const task = (id: string, over: Partial<GateTask> = {}): GateTask => ({
  id,
  systemKey: id,
  action: 'erasure',
  required: true,
  state: 'complete',
  outcome: { outcome: 'complete', erasure: confirmation },
  ...over,
});
const open = (tasks: GateTask[]) => tasks.filter((t) => t.required && !['complete', 'not_found', 'skipped', 'cancelled'].includes(t.state));

describe('the fulfilment gate of the tasks', () => {
  it('lets a request without open required tasks through, whatever its optional ones do', () => {
    const all = [task('a', { action: 'access', outcome: { outcome: 'complete' } }), task('b', { action: 'access', required: false, state: 'queued', outcome: null })];
    expect(taskGateRefusal('access', open(all), all)).toBeNull();
  });

  it('refuses while a required task is open, naming each with its state', () => {
    const all = [task('crm', { action: 'access', state: 'claimed', outcome: null }), task('web', { action: 'access', state: 'error', outcome: null }), task('ok', { action: 'access' })];
    expect(taskGateRefusal('access', [all[0], all[1]], all)).toEqual({
      code: 'FULFILMENT_TASKS_OPEN',
      tasks: [
        { taskId: 'crm', systemKey: 'crm', state: 'claimed' },
        { taskId: 'web', systemKey: 'web', state: 'error' },
      ],
    });
  });

  it('takes an erasure as proven by a confirmation, a not-found or a skip with its reason; not a cancellation nor a bare complete', () => {
    const bare: TaskAnswer = { outcome: 'complete' };
    const all = [
      task('confirmed'),
      task('none', { state: 'not_found', outcome: { outcome: 'not_found' } }),
      task('skipped', { state: 'skipped', outcome: { outcome: 'skipped', reason: 'timed_out' } }),
      task('cancelled', { state: 'cancelled', outcome: null }),
      task('bare', { outcome: bare }),
      task('optional', { required: false, state: 'cancelled', outcome: null }),
      task('access', { action: 'access', state: 'cancelled', outcome: null }),
    ];
    expect(unconfirmedErasures(all).map((t) => t.taskId)).toEqual(['cancelled', 'bare']);
    expect(taskGateRefusal('erasure', [], all)).toMatchObject({ code: 'ERASURE_NOT_CONFIRMED', tasks: [{ taskId: 'cancelled' }, { taskId: 'bare' }] });
    // Only an erasure request asks for the proof.
    expect(taskGateRefusal('access', [], all)).toBeNull();
    expect(taskGateRefusal('erasure', [], all.slice(0, 3))).toBeNull();
  });

  it('names what an override goes past once: the open tasks and, for an erasure, the unproven ones', () => {
    const claimed = task('crm', { state: 'claimed', outcome: null });
    const all = [claimed, task('gone', { state: 'cancelled', outcome: null }), task('fine')];
    expect(overriddenTasks('erasure', [claimed], all)).toEqual([
      { taskId: 'crm', systemKey: 'crm', state: 'claimed' },
      { taskId: 'gone', systemKey: 'gone', state: 'cancelled' },
    ]);
    expect(overriddenTasks('access', [claimed], all)).toEqual([{ taskId: 'crm', systemKey: 'crm', state: 'claimed' }]);
  });
});
