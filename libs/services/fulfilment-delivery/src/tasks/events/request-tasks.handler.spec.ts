import { type CloudEventEnvelope, LifecycleEventTypes } from '@dsar/contracts';
import type { UnitOfWork } from '@dsar/platform/persistence';
import { dataSystemSettingsFrom } from '../../data-systems/data-system-settings';
import type { TaskFanout } from '../application/task-fanout';
import { RequestTasksHandler } from './request-tasks.handler';

const REQUEST_ID = '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c';

function handler(fanoutRequiresVerification: boolean) {
  const asked: string[] = [];
  const fanout = { ask: async (_tx: unknown, _t: string, _w: string | null, id: string) => void asked.push(id), cancel: async () => undefined } as unknown as TaskFanout;
  const uow = { run: (work: (tx: unknown) => Promise<unknown>) => work({}) } as unknown as UnitOfWork;
  return { asked, handler: new RequestTasksHandler(fanout, uow, dataSystemSettingsFrom({ FANOUT_REQUIRES_VERIFICATION: fanoutRequiresVerification })) };
}

const move = (type: string, fromStatus: string, status: string) =>
  ({ type, data: { requestId: REQUEST_ID, tenantId: 'tenant-a', workspaceId: null, actor: 'key:1', fromStatus, status } }) as unknown as CloudEventEnvelope;

describe('when a request fans out to its data systems', () => {
  it.each([
    [false, LifecycleEventTypes.acknowledged, 'received', 'in_progress', true],
    [false, LifecycleEventTypes.verified, 'verification_pending', 'in_progress', true],
    [false, LifecycleEventTypes.acknowledged, 'verification_pending', 'verification_pending', false],
    [false, LifecycleEventTypes.clarificationRequested, 'in_progress', 'clarification_pending', false],
    [true, LifecycleEventTypes.acknowledged, 'received', 'in_progress', false],
    [true, LifecycleEventTypes.clarificationReceived, 'clarification_pending', 'in_progress', false],
    [true, LifecycleEventTypes.verified, 'verification_pending', 'in_progress', true],
  ])('FANOUT_REQUIRES_VERIFICATION %s: %s from %s to %s fans out: %s', async (requiresVerification, type, from, to, fansOut) => {
    const { asked, handler: h } = handler(requiresVerification);
    await h.onMove(move(type, from, to));
    expect(asked).toEqual(fansOut ? [REQUEST_ID] : []);
  });
});
