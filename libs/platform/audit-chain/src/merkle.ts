import type { AuditCheckpointLeaf } from '@dsar/contracts';
import { canonicalJson, sha256Of } from './hashing';

/**
 * The Merkle tree of a signed checkpoint. A leaf is the sha256 of the RFC 8785
 * JSON of `{hash, requestId, sequence}` (one chain head); a node is the sha256
 * of its two children's `sha256:…` strings written one after the other. A
 * node without a sibling moves up a level unchanged. Leaf input starts with
 * `{` and node input with `s`, so the two can never be confused.
 */
export function leafHash(leaf: AuditCheckpointLeaf): string {
  return sha256Of(canonicalJson({ hash: leaf.hash, requestId: leaf.requestId, sequence: leaf.sequence }));
}

export function nodeHash(left: string, right: string): string {
  return sha256Of(left, right);
}

/** The root over leaf hashes in the given order; there must be at least one. */
export function merkleRoot(leafHashes: readonly string[]): string {
  if (leafHashes.length === 0) throw new RangeError('a Merkle tree needs at least one leaf');
  let level = [...leafHashes];
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? nodeHash(level[i], level[i + 1]) : level[i]);
    level = next;
  }
  return level[0];
}
