import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
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

/** Signs checkpoints with the ledger's Ed25519 key. */
export class CheckpointSigner {
  readonly keyId: string;
  readonly publicKeyPem: string;
  private readonly key: KeyObject;

  /** `pem`: a PKCS#8 Ed25519 private key (`openssl genpkey -algorithm ed25519`). */
  constructor(pem: string) {
    this.key = createPrivateKey(pem);
    if (this.key.asymmetricKeyType !== 'ed25519') {
      throw new Error(`the audit signing key is ${this.key.asymmetricKeyType ?? 'not an asymmetric key'}; it must be Ed25519`);
    }
    const publicKey = createPublicKey(this.key);
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.keyId = keyIdOf(publicKey);
  }

  /** Base64 signature over the statement's text. */
  sign(statement: CheckpointStatement): string {
    return sign(null, Buffer.from(statementText(statement), 'utf8'), this.key).toString('base64');
  }
}

/** Whether a checkpoint's signature is good for its statement, under the public key it carries, and that key is the one it names. */
export function checkpointSignatureValid(c: AuditCheckpoint): boolean {
  const publicKey = createPublicKey(c.publicKey);
  if (keyIdOf(publicKey) !== c.keyId) return false;
  return verify(null, Buffer.from(statementText(c), 'utf8'), publicKey, Buffer.from(c.signature, 'base64'));
}
