/**
 * The audit chain's format, and everything needed to check it without the
 * ledger: RFC 8785 hashing, the hash-chained entries, their verifier, the
 * Merkle tree of signed checkpoints and their Ed25519 statements
 * (docs/audit.md). Pure functions: the audit-ledger writes and checks chains
 * with them, and the `dsar` CLI checks exported chains and checkpoints
 * offline with the same code.
 */
export { canonicalJson, HASH_PREFIX, sha256Of } from './hashing';
export { type ChainEntry, chainEntry, type EntryFacts, entryHash, GENESIS_HASH, readEntry, type StoredEntry, storedEntry } from './chain';
export { CHAIN_GENESIS, type ChainStart, ChainVerifier } from './chain-verifier';
export { leafHash, merkleRoot, nodeHash } from './merkle';
export { checkpointSignatureValid, type CheckpointStatement, keyIdOf, statementText } from './checkpoint';
