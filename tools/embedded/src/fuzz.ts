import 'reflect-metadata';
import { runSchemathesis, schemathesisSettingsFrom, startFuzzTarget } from './schemathesis';

/**
 * `npm run fuzz [-- schemathesis args]`: the whole system in this process (in-memory database), then
 * Schemathesis against its OpenAPI document with every check and phase. Knobs: SCHEMATHESIS_MAX_EXAMPLES (default
 * 100 here), SCHEMATHESIS_SEED, SCHEMATHESIS_MAX_TIME (seconds, default 1800), SCHEMATHESIS_WORKERS,
 * SCHEMATHESIS_PHASES. Exits with Schemathesis' code.
 */
async function main(): Promise<void> {
  const settings = schemathesisSettingsFrom(process.env, { maxExamples: 100, maxTimeSeconds: 1800, extraArgs: process.argv.slice(2) });
  const system = await startFuzzTarget('fuzz');
  process.stdout.write(`fuzzing ${system.gatewayUrl}/api/v1 (seed ${settings.seed}, ${settings.maxExamples} examples, ${settings.maxTimeSeconds}s budget)\n`);
  let exitCode = 1;
  try {
    exitCode = (await runSchemathesis(system.gatewayUrl, settings, (chunk) => process.stdout.write(chunk))).exitCode;
  } finally {
    await system.close();
  }
  process.stdout.write(`reports in ${settings.reportDir}\n`);
  process.exit(exitCode);
}

main().catch((e) => {
  process.stderr.write(`fuzz: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
