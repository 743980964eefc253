import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { DataSystemDefinition } from '../domain/data-system-rules';

export type { DataSystemDefinition } from '../domain/data-system-rules';

/** One data system of a tenant (docs/data-systems.md#the-registry); a deleted one keeps its row with `deletedAt`. */
@Entity({ name: 'data_system' })
export class DataSystemEntity {
  @PrimaryColumn('text', { name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn('text')
  key: string;

  /** +1 per change of the definition (a PUT of the same definition changes nothing); goes on after a delete. */
  @Column('integer')
  version: number;

  @Column('jsonb')
  definition: DataSystemDefinition;

  /** The FileStorage object holding the webhook secret, encrypted under the tenant's key (null unless mode webhook). */
  @Column('text', { name: 'webhook_secret_object', nullable: true })
  webhookSecretObject: string | null;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;

  /** When the key was registered (again, after a delete). */
  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('text', { name: 'updated_by' })
  updatedBy: string;
}

/** One change of a system, appended and never changed: its definition after the change (the last one, for a delete). */
@Entity({ name: 'data_system_history' })
export class DataSystemHistoryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  seq?: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text')
  key: string;

  @Column('integer')
  version: number;

  @Column('text')
  change: 'created' | 'replaced' | 'deleted';

  @Column('jsonb')
  definition: DataSystemDefinition;

  @Column('timestamptz')
  at: Date;

  @Column('text')
  by: string;
}
