import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { type artifactDeliveredV1, DeliveryEventTypes, type deliveredArtifact, isUuid, type Principal, PUBLIC_API_PREFIX, type RequestDetail } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { conditionalFileAnswer, entityTagOf, type FileConditions } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { BlobNotFoundError, type ByteRange, StorageUnavailableError, TenantKeyDestroyedError } from '@dsar/platform/storage';
import type { StepUpChallengeEntity } from '../infrastructure/step-up-challenge.entity';
import { type DeliverableArtifact, DeliverableArtifacts } from './deliverable-artifacts';
import { type DeliveryFacts, DeliveryLog } from './delivery-log';
import { DeliveryRequests } from './delivery-requests';
import { StepUp } from './step-up';

export type DeliveredArtifact = z.infer<typeof deliveredArtifact>;

/** What a bytes download answers with. */
export type ArtifactBytes =
  | { kind: 'bytes'; artifact: DeliverableArtifact; etag: string; stream: Readable; size: number; range: ByteRange; partial: boolean }
  | { kind: 'not_modified'; artifact: DeliverableArtifact; etag: string }
  | { kind: 'unsatisfiable'; artifact: DeliverableArtifact; etag: string; size: number };

/**
 * Downloads of a request's artifacts through the step-up gate: the metadata
 * (JSON) or the bytes, ranged when asked. Each download that serves something
 * (the metadata, a 200 or a 206) is logged and published as
 * `dsar.delivery.artifact_delivered.v1` before it is answered; a 304 or 416
 * serves nothing and records nothing.
 */
@Injectable()
export class ArtifactDelivery {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly requests: DeliveryRequests,
    private readonly artifacts: DeliverableArtifacts,
    private readonly stepUp: StepUp,
    private readonly log: DeliveryLog,
  ) {}

  async metadata(principal: Principal, requestId: string, artifactId: string, token: string | undefined): Promise<DeliveredArtifact> {
    const { detail, challenge, artifact } = await this.gate(principal, requestId, artifactId, token);
    await this.delivered(principal, detail, challenge, artifact, false, `artifact ${artifact.artifactId} version ${artifact.version}: metadata`);
    const { artifactId: id, filename, title, type, contentType, size, sha256, version } = artifact;
    return {
      requestId: detail.id,
      artifactId: id,
      artifact: { artifactId: id, filename, title, type, contentType, size, sha256, version, download: `${PUBLIC_API_PREFIX}/requests/${detail.id}/artifacts/${id}/download` },
    };
  }

  async bytes(principal: Principal, requestId: string, artifactId: string, token: string | undefined, conditions: FileConditions): Promise<ArtifactBytes> {
    const { detail, challenge, artifact } = await this.gate(principal, requestId, artifactId, token);
    return this.serve(principal, detail, challenge, artifact, conditions);
  }

  /**
   * The bytes of an artifact for a caller the person's download page let through (its own gate: the link's session,
   * delivery-links.ts): the same answer, log and event as a download through the token gate.
   */
  async bytesOfLink(principal: Principal, detail: RequestDetail, link: StepUpChallengeEntity, artifactId: string, conditions: FileConditions): Promise<ArtifactBytes> {
    this.requests.assertCollectable(detail, 'download_delivery');
    return this.serve(principal, detail, link, await this.artifactOf(detail, artifactId), conditions);
  }

  private async serve(principal: Principal, detail: RequestDetail, challenge: StepUpChallengeEntity, artifact: DeliverableArtifact, conditions: FileConditions): Promise<ArtifactBytes> {
    const etag = entityTagOf(artifact.sha256);
    const answer = conditionalFileAnswer(artifact, conditions);
    if (answer.status === 304) return { kind: 'not_modified', artifact, etag };
    if (answer.status === 416) return { kind: 'unsatisfiable', artifact, etag, size: artifact.size };
    const range = answer.status === 206 ? answer.range : undefined;
    let got;
    try {
      got = await this.artifacts.open(artifact, range);
    } catch (e) {
      throw storageProblem(e, artifact.artifactId);
    }
    const what = range ? `bytes ${got.range.start}-${got.range.end}/${got.size}` : `${got.size} bytes`;
    try {
      await this.delivered(principal, detail, challenge, artifact, true, `artifact ${artifact.artifactId} version ${artifact.version}: ${what}`);
    } catch (e) {
      got.stream.destroy();
      throw e;
    }
    return { kind: 'bytes', artifact, etag, stream: got.stream, size: got.size, range: got.range, partial: range !== undefined };
  }

  /**
   * The request, the challenge whose token opens it, and the artifact (404
   * after the gate, never before). The token is checked before the status: a
   * download without a valid token is a 401 whatever the request's state (a
   * completed challenge exists only for a fulfilled request anyway).
   */
  private async gate(principal: Principal, requestId: string, artifactId: string, token: string | undefined) {
    const detail = await this.requests.read(principal, requestId);
    const challenge = await this.stepUp.authorize(principal, detail, token, artifactId);
    this.requests.assertCollectable(detail, 'download_delivery');
    return { detail, challenge, artifact: await this.artifactOf(detail, artifactId) };
  }

  /** The current version of one of the request's deliverable artifacts; 404 when it has none of that id. */
  private async artifactOf(detail: RequestDetail, artifactId: string): Promise<DeliverableArtifact> {
    const artifact = isUuid(artifactId) ? (await this.artifacts.currentOf(detail.tenantId, detail.id)).find((a) => a.artifactId === artifactId) : undefined;
    if (!artifact) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${detail.id} has no artifact ${artifactId} to deliver.`);
    return artifact;
  }

  private async delivered(principal: Principal, detail: RequestDetail, challenge: StepUpChallengeEntity, artifact: DeliverableArtifact, bytes: boolean, what: string): Promise<void> {
    const facts: DeliveryFacts = { requestId: detail.id, tenantId: detail.tenantId, workspaceId: detail.workspaceId };
    await this.uow.run(async (tx) => {
      const now = this.clock.now();
      await this.log.recordTry(
        tx,
        facts,
        DeliveryEventTypes.artifactDelivered,
        { actor: principal.id, occurredAt: now.toISOString(), challengeId: challenge.id, artifactId: artifact.artifactId, version: artifact.version, bytes } satisfies Omit<
          z.infer<typeof artifactDeliveredV1>,
          keyof DeliveryFacts
        >,
        { outcome: bytes ? 'bytes' : 'metadata', actor: principal.id, at: now, challengeId: challenge.id, artifactId: artifact.artifactId, detail: what },
      );
    });
  }
}

/** A storage failure as the client sees it; anything unexpected (an integrity failure) stays an internal error. */
function storageProblem(e: unknown, artifactId: string): unknown {
  if (e instanceof StorageUnavailableError) return new ProblemError('SERVICE_UNAVAILABLE', 'Artifact storage is not available right now.', undefined, {}, { 'Retry-After': '5' });
  if (e instanceof TenantKeyDestroyedError || e instanceof BlobNotFoundError) {
    return new ProblemError('MANIFEST_ARTIFACT_DOWNLOAD_FAILED', `The bytes of artifact ${artifactId} are no longer held.`);
  }
  return e;
}
