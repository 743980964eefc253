import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { cpuMsOf, created, REPO_ROOT, rssOf, sleep } from './util';

/**
 * With BENCH_CPU_PROF_DIR set, every product process writes a V8 CPU profile there when it stops
 * (`<name>.cpuprofile`, the last run of each name; `tools/bench/harness/profile-summary.ts` reads them). Node refuses `--cpu-prof` in
 * NODE_OPTIONS, hence an argument of each process.
 */
function profilingArgs(name: string): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
}

/** The processes still running, so that an interrupted run can stop them all. */
const live = new Set<Proc>();

/** Stops every process still running (an interrupted run). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** What a Proc runs: `node <args>` from the repository root, or another program (a peer system the benchmarks compare with). */
interface Command {
  command: string;
  args: string[];
  cwd: string;
  /** In a process group of its own, signalled as a whole: a program that forks workers (uvicorn) leaves none behind. */
  group: boolean;
}

/**
 * One child process of a benchmark (a product service, the embedded system, a floor server, a peer system), its
 * output kept in a log file. Stopped with SIGTERM, SIGKILL after 15 s.
 */
export class Proc {
  private readonly child: ChildProcess;
  private readonly logStream: WriteStream;
  readonly pid: number;
  readonly startedAt = performance.now();
  exit?: string;
  private readonly exited: Promise<void>;
  private stopping?: Promise<void>;

  constructor(
    readonly name: string,
    private readonly command: Command,
    env: Record<string, string>,
    readonly logFile: string,
    private readonly onLine?: (line: string) => void,
  ) {
    mkdirSync(dirname(logFile), { recursive: true });
    this.logStream = createWriteStream(logFile, { flags: 'a' });
    this.child = spawn(command.command, command.args, { cwd: command.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: command.group });
    if (this.child.pid === undefined) throw new Error(`${name} did not start`);
    this.pid = this.child.pid;
    created.pids.push(this.pid);
    live.add(this);
    this.child.stdout?.pipe(this.logStream, { end: false });
    this.child.stderr?.pipe(this.logStream, { end: false });
    if (onLine) {
      let partial = '';
      this.child.stdout?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) this.onLine?.(l);
      });
    }
    this.exited = new Promise((ok) =>
      this.child.once('exit', (code, signal) => {
        this.exit = signal ? `killed by ${signal}` : `exited with ${code}`;
        live.delete(this);
        ok();
      }),
    );
  }

  /** `node tools/scripts/run-ts.cjs <entry.ts>` (as npm start and the image run a service) or `node <entry.js>` (built output). */
  static node(name: string, entry: string, env: Record<string, string>, logFile: string, onLine?: (line: string) => void): Proc {
    const args = [...profilingArgs(name), ...(entry.endsWith('.ts') ? ['tools/scripts/run-ts.cjs', entry] : [entry])];
    return new Proc(name, { command: process.execPath, args, cwd: REPO_ROOT, group: false }, env, logFile, onLine);
  }

  /** Another program, in `cwd`, in a process group of its own (stopped as a whole, its workers with it). */
  static program(name: string, command: string, args: string[], env: Record<string, string>, logFile: string, cwd: string): Proc {
    return new Proc(name, { command, args, cwd, group: true }, env, logFile);
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  rss(): number | undefined {
    return this.running ? rssOf(this.pid) : undefined;
  }

  cpuMs(): number | undefined {
    return this.running ? cpuMsOf(this.pid) : undefined;
  }

  /** The last lines of its log. */
  tail(lines = 20): string {
    try {
      return readFileSync(this.logFile, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .map((l) => `  | ${l}`)
        .join('\n');
    } catch {
      return '  | (no output)';
    }
  }

  /** Stops it (once: later calls wait for the same stop). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.running) {
        this.signal('SIGTERM');
        const timer = setTimeout(() => this.signal('SIGKILL'), 15_000);
        await this.exited;
        clearTimeout(timer);
      }
      // A group's workers that outlived their parent.
      if (this.command.group) this.signal('SIGKILL');
      await new Promise<void>((ok) => this.logStream.end(ok));
    })();
    return this.stopping;
  }

  /** Signals the process, or its whole group; a group already gone is no error. */
  private signal(signal: NodeJS.Signals): void {
    if (!this.command.group) {
      this.child.kill(signal);
      return;
    }
    try {
      process.kill(-this.pid, signal);
    } catch {
      /* ESRCH: nothing left in the group */
    }
  }
}

/** Whether `url`/health/ready answers 200 now. */
export async function isReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Waits until every URL is ready, polling every `intervalMs`; fails as soon as one of the processes exits (with
 * the end of its log) or after `timeoutMs`.
 */
export async function waitReady(urls: string[], procs: Proc[], timeoutMs: number, intervalMs = 100): Promise<void> {
  const t0 = performance.now();
  const pending = new Set(urls);
  while (pending.size > 0) {
    const dead = procs.find((p) => !p.running);
    if (dead) throw new Error(`${dead.name} ${dead.exit} before it was ready; last lines of ${dead.logFile}:\n${dead.tail()}`);
    for (const url of [...pending]) if (await isReady(url)) pending.delete(url);
    if (pending.size === 0) return;
    if (performance.now() - t0 > timeoutMs) {
      throw new Error(`not ready within ${timeoutMs} ms: ${[...pending].join(', ')}\n${procs.map((p) => `${p.name}:\n${p.tail(8)}`).join('\n')}`);
    }
    await sleep(intervalMs);
  }
}
