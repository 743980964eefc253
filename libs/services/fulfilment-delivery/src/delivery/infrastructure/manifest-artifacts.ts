import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ArtifactType } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { type ByteRange, FileStorage, type GetResult } from '@dsar/platform/storage';
import { ArtifactEntity, ArtifactVersionEntity } from '../../fulfilment/infrastructure/artifact.entity';
import { ManifestEntity } from '../../fulfilment/infrastructure/manifest.entity';
import { type DeliverableArtifact, DeliverableArtifacts } from '../application/deliverable-artifacts';

interface Row {
  artifactId: string;
  tenantId: string;
  requestId: string;
  title: string;
  type: ArtifactType;
  artifactKey: string;
  version: number;
  filename: string;
  contentType: string;
  size: string | number;
  sha256: string;
  storageKey: string;
}

/**
 * Delivery's view of fulfilment's tables (same service, same schema): the
 * manifest's artifacts joined with their current versions, read only. The
 * bytes come from the service's FileStorage under the version's storage key.
 */
@Injectable()
export class ManifestArtifacts extends DeliverableArtifacts {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly storage: FileStorage,
  ) {
    super();
  }

  private get db(): EntityManager {
    return this.uow.manager;
  }

  async currentOf(tenantId: string, requestId: string): Promise<DeliverableArtifact[]> {
    const rows = await this.db
      .createQueryBuilder(ArtifactEntity, 'a')
      .innerJoin(ManifestEntity, 'm', 'm.requestId = a.requestId AND m.tenantId = a.tenantId')
      .innerJoin(ArtifactVersionEntity, 'v', 'v.artifactId = a.id AND v.version = a.currentVersion')
      .where('a.tenantId = :tenantId AND a.requestId = :requestId', { tenantId, requestId })
      .andWhere('a.purgedAt IS NULL AND v.purgedAt IS NULL AND v.replacedAt IS NULL')
      .andWhere('m.validationState = :approved', { approved: 'approved' })
      .select('a.id', 'artifactId')
      .addSelect('a.tenantId', 'tenantId')
      .addSelect('a.requestId', 'requestId')
      .addSelect('a.title', 'title')
      .addSelect('a.type', 'type')
      .addSelect('v.artifactKey', 'artifactKey')
      .addSelect('v.version', 'version')
      // The display name, kept across replacements: the data subject gets the file under the name it was uploaded with.
      .addSelect('a.filename', 'filename')
      .addSelect('v.contentType', 'contentType')
      .addSelect('v.size', 'size')
      .addSelect('v.sha256', 'sha256')
      .addSelect('v.storageKey', 'storageKey')
      .orderBy('a.createdAt', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .getRawMany<Row>();
    return rows.map((r) => ({ ...r, version: Number(r.version), size: Number(r.size) }));
  }

  open(artifact: DeliverableArtifact, range?: ByteRange): Promise<GetResult> {
    return this.storage.get(artifact.tenantId, artifact.storageKey, range);
  }
}
