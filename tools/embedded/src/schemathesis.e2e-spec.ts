import type { RunningSystem } from './system';
import { runSchemathesis, schemathesisSettingsFrom, startFuzzTarget, summaryOf } from './schemathesis';

/**
 * Schemathesis (tools/scripts/schemathesis.sh, a pinned 4.x in .tools/schemathesis) against the gateway's
 * OpenAPI document: all checks, the examples, coverage, fuzzing and stateful phases, a fixed seed and a budget of
 * a few minutes. `npm run fuzz` runs the same with more examples (README, Working on the project).
 */
const settings = schemathesisSettingsFrom(process.env, { maxExamples: 10, maxTimeSeconds: 240 });

let system: RunningSystem;

beforeAll(async () => {
  system = await startFuzzTarget();
});

afterAll(async () => system?.close());

it(
  `finds no failure (seed ${settings.seed}, ${settings.maxExamples} examples, ${settings.maxTimeSeconds}s)`,
  async () => {
    const result = await runSchemathesis(system.gatewayUrl, settings);
    if (result.exitCode !== 0) {
      throw new Error(
        `schemathesis ${result.args.slice(0, 2).join(' ')} exited with ${result.exitCode}; reproduce with SCHEMATHESIS_SEED=${settings.seed} npm run fuzz\n\n${summaryOf(result.output)}`,
      );
    }
    expect(result.output).toMatch(/Test Phases|Summary|passed/i);
  },
  (settings.maxTimeSeconds + 120) * 1000,
);
