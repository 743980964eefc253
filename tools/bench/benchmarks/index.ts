import type { Benchmark } from '../harness/types';
import { catchup } from './catchup';
import { cli } from './cli';
import { create } from './create';
import { fanout } from './fanout';
import { fides } from './fides';
import { hop } from './hop';
import { footprint } from './footprint';
import { identity } from './identity';
import { intake } from './intake';
import { propagation } from './propagation';
import { queue } from './queue';
import { readLetter } from './read-letter';
import { reads } from './reads';
import { relay } from './relay';
import { artifact, audit, evidence } from './scripts';
import { soak } from './soak';

/** Every benchmark of the harness, in the order they run and appear in docs/performance.md. */
export const BENCHMARKS: Benchmark[] = [intake, propagation, queue, reads, relay, footprint, catchup, soak, audit, evidence, artifact, cli, fanout, readLetter, identity, create, fides, hop];
