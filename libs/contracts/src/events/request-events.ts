import { z } from 'zod';
import type { EventTypeDefinition } from './event-catalog';
import { Topics } from './topics';

/**
 * Facts about the request aggregate, owned by lifecycle-clock. Payloads carry
 * identifiers and facts; personal data stays in the owning service.
 */
export const requestCreatedV1 = z.object({
  requestId: z.uuid(),
  tenantId: z.string().min(1),
  workspaceId: z.string().min(1).nullable(),
  jurisdiction: z.string().min(2),
  requestType: z.string().min(1),
  status: z.literal('received'),
  receivedAt: z.iso.datetime({ offset: true }),
  intakeReceivedAt: z.iso.datetime({ offset: true }),
  channel: z.string().min(1),
});
export type RequestCreatedV1 = z.infer<typeof requestCreatedV1>;

export const RequestEventTypes = {
  created: 'dsar.request.created.v1',
} as const;

export const requestEventDefinitions: EventTypeDefinition[] = [
  {
    type: RequestEventTypes.created,
    topic: Topics.request,
    schema: requestCreatedV1,
    producer: 'lifecycle-clock',
    description: 'A data subject request was recorded and its legal clock started.',
  },
];
