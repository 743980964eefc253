import { z } from 'zod';
import type { EventTypeDefinition } from './event-catalog';
import { CLOCK_MODES, REQUEST_TYPES } from '../http/requests';
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
  requestType: z.enum(REQUEST_TYPES),
  requestTypeInferred: z.boolean(),
  status: z.literal('received'),
  /** When the service recorded the request. */
  receivedAt: z.iso.datetime({ offset: true }),
  /** When the original channel received it: the provenance time the clock counts from. */
  intakeReceivedAt: z.iso.datetime({ offset: true }),
  dueAt: z.iso.datetime({ offset: true }),
  clockMode: z.enum(CLOCK_MODES),
  policyPack: z.string().min(1),
  policyVersion: z.string().min(1),
  channel: z.string().min(1),
  requestorType: z.string().nullable(),
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
