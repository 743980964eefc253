import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { LifecycleAction } from '@dsar/contracts';

/** What a command said and chose: flat text and flags. */
export type TransitionDetails = Record<string, string | boolean | null>;

/**
 * One step of a request's workflow, as it was commanded: who did what, the
 * status before and after, and what was said (messages, reasons, rationale).
 * The domain event carries the facts; the words stay here, with the owner of
 * the request, so they can be shown to the controller and sent to the requester.
 */
@Entity({ name: 'request_transitions' })
export class RequestTransitionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text')
  action: LifecycleAction;

  @Column('text', { name: 'from_status' })
  fromStatus: string;

  @Column('text', { name: 'to_status' })
  toStatus: string;

  @Column('text')
  actor: string;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  /** The command's words and choices: message, channel, reason, rationale… */
  @Column('jsonb')
  details: TransitionDetails;

  /** The domain event this step emitted. */
  @Column('uuid', { name: 'event_id' })
  eventId: string;
}
