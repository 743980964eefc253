import type { ArtifactRecord } from '@dsar/contracts';
import type { ByteRange, GetResult } from '@dsar/platform/storage';

/** An artifact delivery can hand out: the current version of one artifact of the request's approved manifest. */
export type DeliverableArtifact = Pick<ArtifactRecord, 'artifactId' | 'artifactKey' | 'filename' | 'title' | 'type' | 'contentType' | 'size' | 'sha256' | 'version'> & {
  tenantId: string;
  requestId: string;
  /** Where its bytes are in FileStorage. */
  storageKey: string;
};

/**
 * What delivery reads of fulfilment: the manifest's current artifacts and
 * their bytes. Delivery never writes them.
 */
export abstract class DeliverableArtifacts {
  /**
   * The artifacts delivery hands out, oldest first: the current version of
   * each artifact of the request's manifest, only while that manifest is
   * approved, without purged ones. None when the request has no manifest.
   */
  abstract currentOf(tenantId: string, requestId: string): Promise<DeliverableArtifact[]>;

  /** The bytes of an artifact's current version, or of a range of them, decrypted as they stream. */
  abstract open(artifact: DeliverableArtifact, range?: ByteRange): Promise<GetResult>;
}
