import { createPublicKey } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ProblemError } from '@dsar/platform/errors';
import { keyIdOf } from '@dsar/platform/audit-chain';
import { newSigningKeyPem } from '../audit-settings';
import { CheckpointPublisher, type CheckpointSettings } from './checkpoint-publisher';

/** The publisher without a database: what it answers before it touches one. */
function publisher(settings: Partial<CheckpointSettings>): CheckpointPublisher {
  const none = undefined as never;
  return new CheckpointPublisher(none, none, none, none, { intervalMs: 0, maxLeaves: 10_000, ...settings });
}

describe('CheckpointPublisher', () => {
  it('serves its public key as PEM and JWK under the id checkpoints name', () => {
    const keys = publisher({ signingKeyPem: newSigningKeyPem() }).keys();
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key).toMatchObject({ algorithm: 'ed25519', jwk: { kty: 'OKP', crv: 'Ed25519' } });
    expect(keyIdOf(createPublicKey(key.publicKey))).toBe(key.keyId);
    expect(keyIdOf(createPublicKey({ key: key.jwk, format: 'jwk' }))).toBe(key.keyId);
  });

  it('without a signing key serves no key, and a checkpoint on demand is 503 SVC-BE-1009', async () => {
    const off = publisher({});
    expect(off.keys()).toEqual([]);
    const refused = await off.checkpointTenant('acme').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ definition: { code: 'SVC-BE-1009', status: 503 } });
  });
});

describe('CheckpointPublisher at start', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs the key id verifiers trust, also when only checkpoints on demand are made (no schedule)', () => {
    const logged: unknown[] = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logged.push(message));
    const onDemand = publisher({ signingKeyPem: newSigningKeyPem() });
    onDemand.onApplicationBootstrap();
    expect(logged).toEqual([expect.objectContaining({ keyId: onDemand.keyId, msg: expect.stringContaining(`signing audit checkpoints with key ${onDemand.keyId}`), intervalMs: 0 })]);
  });
});
