import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

/** The request aggregate's row. lifecycle-clock alone writes it; the version column makes concurrent changes conflict. */
@Entity({ name: 'requests' })
@Index('requests_tenant_received', ['tenantId', 'receivedAt'])
export class RequestEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('text')
  jurisdiction: string;

  @Column('text', { name: 'request_type' })
  requestType: string;

  @Column('text')
  status: string;

  @Column('text')
  channel: string;

  /** When the service recorded the request. */
  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** When the original channel received it: the provenance time the legal clock counts from. */
  @Column('timestamptz', { name: 'intake_received_at' })
  intakeReceivedAt: Date;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;

  @VersionColumn()
  version: number;
}
