import { z } from 'zod';
import { timestamp } from '../http/fields';
import type { EventTypeDefinition } from './event-catalog';
import { Topics } from './topics';

/** Every instant of an event: the contracts' one timestamp type (http/fields.ts). */
const instant = timestamp;
const sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'sha256:<64 hex digits>');

/**
 * A signed checkpoint of one tenant's audit chains: the Merkle root over the
 * heads of the chains that grew since the tenant's previous checkpoint, linked
 * to that checkpoint's root and signed with the ledger's Ed25519 key. Anchor
 * it outside the system (a WORM bucket, a ticket, a timestamping service);
 * docs/audit.md shows how to check it with openssl and jq.
 */
export const auditCheckpointSignedV1 = z.object({
  checkpointId: z.uuid(),
  tenantId: z.string().min(1),
  /** 1, 2, … per tenant. */
  number: z.number().int().positive(),
  createdAt: instant,
  /** Merkle root over the leaves (docs/audit.md#checkpoints). */
  root: sha256,
  /** The root of the tenant's previous checkpoint; null for the first. */
  previousRoot: sha256.nullable(),
  leafCount: z.number().int().positive(),
  algorithm: z.literal('ed25519'),
  /** `sha256:` of the DER (SPKI) public key that signed it. */
  keyId: sha256,
  /** The public key, PEM (SPKI). Trust it only if its keyId is the one you were given. */
  publicKey: z.string().min(1),
  /** Base64 Ed25519 signature over the RFC 8785 JSON of {algorithm, createdAt, keyId, leafCount, number, previousRoot, root, tenantId}. */
  signature: z.string().min(1),
});
export type AuditCheckpointSignedV1 = z.infer<typeof auditCheckpointSignedV1>;

export const AuditEventTypes = {
  checkpointSigned: 'dsar.audit.checkpoint_signed.v1',
} as const;

export const auditEventDefinitions: EventTypeDefinition[] = [
  {
    type: AuditEventTypes.checkpointSigned,
    topic: Topics.audit,
    schema: auditCheckpointSignedV1,
    producer: 'audit-ledger',
    description: "A signed Merkle checkpoint over a tenant's audit chain heads, for anchoring outside the system.",
  },
];
