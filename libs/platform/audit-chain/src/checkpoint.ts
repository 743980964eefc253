import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { AuditCheckpoint } from '@dsar/contracts';
import { canonicalJson, sha256Of } from './hashing';

/** The fields a checkpoint's signature covers. */
export type CheckpointStatement = Pick<AuditCheckpoint, 'algorithm' | 'createdAt' | 'keyId' | 'leafCount' | 'number' | 'previousRoot' | 'root' | 'tenantId'>;

/** The signed bytes: the RFC 8785 JSON of the statement (`jq -jcS '{algorithm, createdAt, …}'` prints it). */
export function statementText(c: CheckpointStatement): string {
  return canonicalJson({
    algorithm: c.algorithm,
    createdAt: c.createdAt,
    keyId: c.keyId,
    leafCount: c.leafCount,
    number: c.number,
    previousRoot: c.previousRoot,
    root: c.root,
    tenantId: c.tenantId,
  });
}

/** `sha256:` of the DER (SPKI) public key: `openssl pkey -pubin -outform DER | openssl dgst -sha256`. */
export function keyIdOf(publicKey: KeyObject): string {
  return sha256Of(publicKey.export({ type: 'spki', format: 'der' }));
}

/** Whether a checkpoint's signature is good for its statement, under the public key it carries, and that key is the one it names. */
export function checkpointSignatureValid(c: AuditCheckpoint): boolean {
  const publicKey = createPublicKey(c.publicKey);
  if (keyIdOf(publicKey) !== c.keyId) return false;
  return verify(null, Buffer.from(statementText(c), 'utf8'), publicKey, Buffer.from(c.signature, 'base64'));
}
