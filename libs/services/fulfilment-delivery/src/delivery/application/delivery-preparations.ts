import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { type addressVerified, DeliveryEventTypes, type DeliveryPrepareCommand, type deliveryPrepared, type deliveryPreparedV1, type Principal } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { UnitOfWork } from '@dsar/platform/persistence';
import { addressesMatch, knownAddressOf, maskAddress, normalizeAddress } from '../domain/address';
import { DeliveryPreparationEntity } from '../infrastructure/delivery-preparation.entity';
import { DeliverableArtifacts } from './deliverable-artifacts';
import { type DeliveryFacts, DeliveryLog } from './delivery-log';
import { DeliveryRequests, disallowed } from './delivery-requests';

export type DeliveryPrepared = z.infer<typeof deliveryPrepared>;
export type AddressVerified = z.infer<typeof addressVerified>;

/**
 * Preparing the delivery of a fulfilled request (channel and security level,
 * over the manifest's current artifacts) and checking the address it goes to.
 */
@Injectable()
export class DeliveryPreparations {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly requests: DeliveryRequests,
    private readonly artifacts: DeliverableArtifacts,
    private readonly log: DeliveryLog,
  ) {}

  /**
   * Prepares (or prepares again, on another channel or level) the delivery of
   * a fulfilled request: 409 SVC-BE-1401 in any other status, 409 SVC-BE-1211
   * when its manifest has no current artifact. Records
   * `dsar.delivery.prepared.v1` and the try; answers every artifact it hands out.
   */
  async prepare(principal: Principal, requestId: string, command: DeliveryPrepareCommand): Promise<DeliveryPrepared> {
    const detail = await this.requests.read(principal, requestId);
    if (detail.status !== 'fulfilled') throw disallowed(detail, 'prepare_delivery', 'delivery is prepared once the request is fulfilled');
    const artifacts = await this.artifacts.currentOf(detail.tenantId, detail.id);
    if (artifacts.length === 0) {
      throw new ProblemError('DELIVERY_NOTHING_TO_DELIVER', `Request ${requestId} has no fulfilment artifact to deliver: its manifest has none.`);
    }
    const facts: DeliveryFacts = { requestId: detail.id, tenantId: detail.tenantId, workspaceId: detail.workspaceId };
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const row: DeliveryPreparationEntity = {
        ...facts,
        channel: command.channel,
        securityLevel: command.securityLevel,
        artifactId: artifacts[0].artifactId,
        artifactCount: artifacts.length,
        preparedAt: now,
        preparedBy: principal.id,
      };
      await tx.upsert(DeliveryPreparationEntity, row, ['requestId']);
      await this.log.recordTry(
        tx,
        facts,
        DeliveryEventTypes.prepared,
        { actor: principal.id, occurredAt: now.toISOString(), channel: command.channel, securityLevel: command.securityLevel, artifactCount: artifacts.length } satisfies Omit<
          z.infer<typeof deliveryPreparedV1>,
          keyof DeliveryFacts
        >,
        {
          outcome: 'prepared',
          actor: principal.id,
          at: now,
          artifactId: row.artifactId,
          detail: `${command.channel}, security level ${command.securityLevel}, ${artifacts.length} artifact${artifacts.length === 1 ? '' : 's'}`,
        },
      );
      return {
        requestId: detail.id,
        artifactId: row.artifactId,
        artifacts: artifacts.map((a) => ({
          artifactId: a.artifactId,
          filename: a.filename,
          title: a.title,
          type: a.type,
          contentType: a.contentType,
          size: a.size,
          sha256: a.sha256,
          version: a.version,
        })),
        deliveryPrepare: { channel: row.channel, securityLevel: row.securityLevel, preparedAt: now.toISOString(), preparedBy: principal.id },
        surface: 'delivery_prepare' as const,
      };
    });
  }

  /**
   * Whether `email` is the requestor's known address (requestor.email, else an
   * email intakeSource.contact), compared normalized and in constant time.
   * Without `email`: whether a known address exists, shown masked. Reads only;
   * nothing is recorded.
   */
  async verifyAddress(principal: Principal, requestId: string, email: string | undefined): Promise<AddressVerified> {
    const detail = await this.requests.read(principal, requestId);
    const known = knownAddressOf(detail);
    const addressKnown = known !== null;
    if (email === undefined) return { requestId: detail.id, email: known === null ? null : maskAddress(known), addressKnown, verified: addressKnown };
    return { requestId: detail.id, email: normalizeAddress(email), addressKnown, verified: known !== null && addressesMatch(known, email) };
  }
}
