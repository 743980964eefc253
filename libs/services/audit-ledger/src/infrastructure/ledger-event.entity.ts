import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One domain event of one request, as the ledger received it (one row per event id). */
@Entity({ name: 'ledger_events' })
@Index('ledger_events_request', ['tenantId', 'requestId', 'id'])
export class LedgerEventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'request_id' })
  requestId: string;

  @Column('uuid', { name: 'event_id', unique: true })
  eventId: string;

  @Column('text', { name: 'event_type' })
  eventType: string;

  @Column('text')
  source: string;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' })
  recordedAt: Date;

  @Column('jsonb')
  payload: Record<string, unknown>;
}
