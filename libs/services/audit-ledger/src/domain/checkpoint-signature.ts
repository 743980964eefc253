import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { type CheckpointStatement, keyIdOf, statementText } from '@dsar/platform/audit-chain';

/** Signs checkpoints with the ledger's Ed25519 key. */
export class CheckpointSigner {
  readonly keyId: string;
  readonly publicKeyPem: string;
  /** The public key as a JWK (RFC 8037: `kty` OKP, `crv` Ed25519, `x`). */
  readonly publicKeyJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
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
    const { x } = publicKey.export({ format: 'jwk' });
    this.publicKeyJwk = { kty: 'OKP', crv: 'Ed25519', x: x ?? '' };
  }

  /** Base64 signature over the statement's text. */
  sign(statement: CheckpointStatement): string {
    return sign(null, Buffer.from(statementText(statement), 'utf8'), this.key).toString('base64');
  }
}
