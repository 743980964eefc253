import { generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';
import type { AuditCheckpoint } from '@dsar/contracts';
import { auditFields, newSigningKeyPem } from '../audit-settings';
import { checkpointSignatureValid, statementText } from '@dsar/platform/audit-chain';
import { CheckpointSigner } from './checkpoint-signature';

const ROOT = `sha256:${'ab'.repeat(32)}`;

function signed(signer: CheckpointSigner): AuditCheckpoint {
  const statement = {
    algorithm: 'ed25519' as const,
    createdAt: '2026-11-21T10:00:00.000Z',
    keyId: signer.keyId,
    leafCount: 3,
    number: 1,
    previousRoot: null,
    root: ROOT,
    tenantId: 'acme',
  };
  return { checkpointId: '00000000-0000-4000-8000-000000000009', ...statement, publicKey: signer.publicKeyPem, signature: signer.sign(statement) };
}

describe('checkpoint signatures', () => {
  const signer = new CheckpointSigner(newSigningKeyPem());

  it('sign the RFC 8785 statement, which a holder of the public key can check', () => {
    const c = signed(signer);
    expect(statementText(c)).toBe(
      `{"algorithm":"ed25519","createdAt":"2026-11-21T10:00:00.000Z","keyId":"${signer.keyId}","leafCount":3,"number":1,"previousRoot":null,"root":"${ROOT}","tenantId":"acme"}`,
    );
    expect(checkpointSignatureValid(c)).toBe(true);
  });

  it('fail for a changed statement, or a key that is not the one named', () => {
    const c = signed(signer);
    expect(checkpointSignatureValid({ ...c, root: `sha256:${'cd'.repeat(32)}` })).toBe(false);
    expect(checkpointSignatureValid({ ...c, number: 2 })).toBe(false);
    const other = new CheckpointSigner(newSigningKeyPem());
    expect(checkpointSignatureValid({ ...c, publicKey: other.publicKeyPem })).toBe(false);
  });

  it('refuse a key that is not Ed25519, at configuration time with what to do', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => new CheckpointSigner(rsa)).toThrow(/must be Ed25519/);
    const parsed = z.object(auditFields).safeParse({ AUDIT_SIGNING_KEY: rsa });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toMatch(/AUDIT_SIGNING_KEY is a rsa key; it must be Ed25519; make one with: openssl genpkey -algorithm ed25519/);
    expect(z.object(auditFields).safeParse({ AUDIT_SIGNING_KEY: 'not a key' }).error?.issues[0].message).toMatch(/is not a PEM private key/);
  });

  it('take a key whose line breaks an environment variable carries as \\n', () => {
    const pem = newSigningKeyPem();
    const parsed = z.object(auditFields).parse({ AUDIT_SIGNING_KEY: pem.replace(/\n/g, '\\n') });
    expect(new CheckpointSigner(parsed.AUDIT_SIGNING_KEY!).keyId).toBe(new CheckpointSigner(pem).keyId);
  });
});
