import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveryPrepareCommand } from '@dsar/contracts';

/** How a request's fulfilled data is to be delivered: one row per request, the latest preparation. */
@Entity({ name: 'delivery_preparations' })
export class DeliveryPreparationEntity {
  @PrimaryColumn('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('text')
  channel: DeliveryPrepareCommand['channel'];

  @Column('text', { name: 'security_level' })
  securityLevel: DeliveryPrepareCommand['securityLevel'];

  /** The first artifact of the manifest when delivery was prepared. */
  @Column('uuid', { name: 'artifact_id' })
  artifactId: string;

  @Column('integer', { name: 'artifact_count' })
  artifactCount: number;

  @Column('timestamptz', { name: 'prepared_at' })
  preparedAt: Date;

  @Column('text', { name: 'prepared_by' })
  preparedBy: string;
}
