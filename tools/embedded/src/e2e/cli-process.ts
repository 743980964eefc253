import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

/** The `dsar` command as `npx dsar` runs it: the root package's bin. */
export const DSAR_BIN = path.resolve(__dirname, '../../../../apps/dsar/bin/dsar.cjs');

/** What one run of the CLI did: its exit code, its output, and its standard output read as JSON when it is JSON. */
export interface CliRun {
  code: number | null;
  json: any;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as a child process with exactly `env` as its environment (nothing of the test's own leaks in), `input`
 * on its standard input. `onSpawn` sees the child as soon as it runs (to watch its memory, say).
 */
export function runCli(args: string[], options: { cwd: string; env: Record<string, string>; input?: string | Buffer; onSpawn?: (child: ChildProcess) => void }): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [DSAR_BIN, ...args], { cwd: options.cwd, env: options.env });
    options.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      done({ code, json, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
