import { run } from './cli';

// A reader that stops early (`dsar … | head`) closes the pipe: the output ends there, quietly.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/** `dsar …`: the exit code is set, not forced, so that everything written reaches a pipe before the process ends. */
run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`dsar: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
