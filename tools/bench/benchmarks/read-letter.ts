import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { classifyMessage, type InboundText, loadLanguageDetector } from '@dsar/services/intake-gateway';
import { atMost, figure } from '../harness/figures';
import type { Benchmark } from '../harness/types';
import { percentileOf, REPO_ROOT } from '../harness/util';

const LABELLED_SET = join(REPO_ROOT, 'libs/services/intake-gateway/src/domain/classifier-evaluation');

/** Every labelled message, as the inbound webhooks would hand it to the classifier. */
function labelledMessages(): InboundText[] {
  return readdirSync(LABELLED_SET)
    .filter((f) => /^labelled-messages\.[a-z]+\.yaml$/.test(f))
    .sort()
    .flatMap((file) => (parse(readFileSync(join(LABELLED_SET, file), 'utf8')) as { messages: InboundText[] }).messages)
    .map(({ subject, text, from, headers }) => ({ subject, text, from, headers }));
}

/**
 * read-letter: how long intake takes to read one inbound message, `classifyMessage` (the classifier's steps and the
 * letter reader: language detection with eld, phrases, citations, boilerplate, scoring), in this process, over the
 * labelled set of classifier-evaluation/ (every language, requests of every type and the messages that are none: the
 * mix the inbound webhooks see). The language model is loaded first and every message read once before the clock
 * runs. Each repetition reads the whole set `rounds` times in a shuffled order; mean and p95 are per message.
 * Runs by name only, no infrastructure: `npm run bench -- read-letter`.
 */

/** A fixed shuffle, so that every run reads the messages in the same orders. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const readLetter: Benchmark = {
  name: 'read-letter',
  summary: 'classifyMessage over the labelled set (eld detection, phrases, citations, scoring): mean and p95 per message',
  inDefault: false,
  needsInfra: false,
  async run(ctx) {
    const t0 = performance.now();
    const detector = await loadLanguageDetector();
    const loadMs = performance.now() - t0;
    const messages = labelledMessages();
    if (messages.length < 100) throw new Error(`only ${messages.length} labelled messages in ${LABELLED_SET}`);
    // Warm-up: every message once (the JIT, eld's tables).
    for (const message of messages) classifyMessage(message, detector);
    const rounds = ctx.smoke ? 1 : 10;
    const means: number[] = [];
    const p95s: number[] = [];
    const maxes: number[] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) {
      const samples: number[] = [];
      for (let round = 0; round < rounds; round++) {
        for (const message of shuffled(messages, rep * 1000 + round + 1)) {
          const start = performance.now();
          classifyMessage(message, detector);
          samples.push(performance.now() - start);
        }
      }
      means.push(samples.reduce((sum, s) => sum + s, 0) / samples.length);
      p95s.push(percentileOf(samples, 0.95));
      maxes.push(Math.max(...samples));
      ctx.log(`    repetition ${rep + 1}: ${samples.length} messages, mean ${(means.at(-1) ?? NaN).toFixed(3)} ms, p95 ${(p95s.at(-1) ?? NaN).toFixed(3)} ms`);
    }
    return {
      title: `read-letter — reading an inbound message (${messages.length} labelled messages, ${rounds} rounds)`,
      method:
        'In process: `classifyMessage(message, detector)` timed with `performance.now()` around each call, over every message of the labelled set ' +
        '(`libs/services/intake-gateway/src/domain/classifier-evaluation/`, seven languages and others, requests and the rest) in a shuffled order, ' +
        'after the eld model is loaded and each message read once. Command: `npm run bench -- read-letter`.',
      figures: [
        figure('mean', 'mean per message', 'ms', means, { target: atMost(2, 'ms') }),
        figure('p95', 'p95 per message', 'ms', p95s),
        figure('max', 'slowest message', 'ms', maxes),
        figure('load', 'loading the language model (once per process)', 'ms', [loadMs]),
      ],
      raw: { messages: messages.length, rounds, means, p95s, maxes, loadMs },
    };
  },
};
