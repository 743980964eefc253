import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type Command, CommanderError } from 'commander';
import { buildProgram, loadCommands } from './cli';
import { commandPath, type Io, Kit } from './kit';

/**
 * Every `dsar` example a user may copy (the help of the program and of each command, docs/cli.md, the README) names
 * commands and flags that exist, with the arguments and flag values they take: commander parses each one with the
 * actions replaced, so nothing is sent. The README's walkthrough also runs against a system
 * (tools/embedded/src/first-start.e2e-spec.ts).
 */
const root = join(__dirname, '../../..');

async function quietProgram(): Promise<{ program: Command; out: () => string }> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  const program = buildProgram(new Kit({ stdout, stderr: new PassThrough() } as unknown as Io, 'test'), await loadCommands());
  return { program, out: () => text };
}

function allCommands(cmd: Command, into: Command[] = []): Command[] {
  for (const c of cmd.commands) {
    into.push(c);
    allCommands(c, into);
  }
  return into;
}

/**
 * The shell words of one line, for the examples' simple shell: quotes ('…', "…") kept together, `$(…)` as one word,
 * a comment (` #…`) dropped. Operators (`&&`, `|`, `;`, `>`, `<`) are words of their own.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  const push = () => {
    if (started) words.push(word);
    word = '';
    started = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      const stop = end < 0 ? line.length : end;
      word += line.slice(i + 1, stop);
      started = true;
      i = stop;
    } else if (c === '$' && line[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      word += line.slice(i, j + 1);
      started = true;
      i = j;
    } else if (c === '#' && !started) {
      break;
    } else if (c === ' ' || c === '\t') {
      push();
    } else if (c === '<' && !started && /^<[\w-]+>/.test(line.slice(i))) {
      // A placeholder, `<id>`: a word.
      const end = line.indexOf('>', i);
      word += line.slice(i, end + 1);
      started = true;
      i = end;
    } else if (c === '&' || c === '|' || c === ';' || c === '>' || c === '<') {
      push();
      let op = c;
      while (line[i + 1] === c) op += line[++i];
      words.push(op);
    } else {
      word += c;
      started = true;
    }
  }
  push();
  return words;
}

const OPERATORS = new Set(['&&', '||', '|', ';', '>', '>>', '<', '<<']);

/**
 * The argument lists of the `dsar` (or `npx dsar`) commands of a line: each simple command that starts with it. A
 * bracketed optional part of a synopsis (`[--prev-hash sha256:…]`) is left out, and so is a line that names no command
 * (`dsar …`, `dsar <command>: <code>` describing an error line).
 */
export function dsarCalls(line: string): string[][] {
  const calls: string[][] = [];
  const words = shellWords(line);
  let segment: string[] = [];
  let redirect = false;
  const flush = () => {
    const start = segment[0] === 'npx' ? 1 : 0;
    const args = segment.slice(start + 1);
    if (segment[start] === 'dsar' && args.length > 0 && args[0] !== '…' && !args[0].startsWith('<')) calls.push(args);
    segment = [];
  };
  let optional = false;
  for (const w of words) {
    if (OPERATORS.has(w)) {
      if (w.startsWith('>') || w.startsWith('<')) {
        redirect = true;
        continue;
      }
      flush();
      continue;
    }
    if (redirect) {
      redirect = false;
      continue;
    }
    if (w.startsWith('[') || optional) {
      optional = !w.endsWith(']');
      continue;
    }
    segment.push(w);
  }
  flush();
  return calls;
}

/**
 * Commander's verdict on `args`, with the commands' actions replaced: undefined when they parse. A value that is a
 * placeholder (`sha256:…`) may fail its flag's check; the flag exists, which is what is asked.
 */
async function parseProblem(args: string[]): Promise<string | undefined> {
  const { program } = await quietProgram();
  for (const cmd of allCommands(program)) {
    if (cmd.commands.length === 0) cmd.action(() => undefined);
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return undefined;
  } catch (e) {
    if (e instanceof CommanderError && (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0)) return undefined;
    if (!(e instanceof CommanderError) && args.some((a) => a.includes('…'))) return undefined;
    return (e as Error).message;
  }
}

/** The `$ …` lines below `Examples:` in a help text. */
const exampleLines = (help: string) =>
  help
    .split('\nExamples:\n')[1]
    ?.split('\n')
    .filter((l) => l.startsWith('  $ '))
    .map((l) => l.slice(4)) ?? [];

async function problemsOf(lines: readonly string[], where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const line of lines) {
    for (const args of dsarCalls(line)) {
      const problem = await parseProblem(args);
      if (problem) problems.push(`${where}: dsar ${args.join(' ')}: ${problem}`);
    }
  }
  return problems;
}

describe('the examples users copy parse as dsar commands', () => {
  it('splits shell lines into the dsar calls they make', () => {
    expect(dsarCalls('dsar manifest upload <id> --file export.zip && dsar manifest validate <id> --action approved --token "$(cat .data/reviewer-token)"')).toEqual([
      ['manifest', 'upload', '<id>', '--file', 'export.zip'],
      ['manifest', 'validate', '<id>', '--action', 'approved', '--token', '$(cat .data/reviewer-token)'],
    ]);
    expect(dsarCalls('ID=$(dsar policies upgrades propose -o json | jq -r .data.proposalId)')).toEqual([]);
    expect(dsarCalls('pg_dump … | dsar manifest upload $ID --file - > out.json   # a comment')).toEqual([['manifest', 'upload', '$ID', '--file', '-']]);
    expect(dsarCalls('npx dsar requests list --all     # the queue')).toEqual([['requests', 'list', '--all']]);
  });

  it('finds a flag or a command that does not exist', async () => {
    expect(await parseProblem(['manifest', 'validate', 'x', '--action', 'approved'])).toBeUndefined();
    expect(await parseProblem(['manifest', 'validate', 'x', '--action', 'approved', '--reviewer', 'y'])).toMatch(/unknown option/);
    expect(await parseProblem(['manifest', 'vallidate', 'x'])).toMatch(/unknown command/);
    expect(await parseProblem(['requests', 'list', '--output', 'xml'])).toMatch(/Allowed choices/);
  });

  it("in the program's help and every command's", async () => {
    const { program, out } = await quietProgram();
    program.outputHelp();
    const problems = await problemsOf(exampleLines(out()), 'dsar --help');
    let count = exampleLines(out()).length;
    for (const cmd of allCommands(program).filter((c) => c.commands.length === 0)) {
      const { program: fresh, out: helpText } = await quietProgram();
      allCommands(fresh)
        .find((c) => commandPath(c) === commandPath(cmd))!
        .outputHelp();
      const lines = exampleLines(helpText());
      count += lines.length;
      problems.push(...(await problemsOf(lines, `dsar ${commandPath(cmd)} --help`)));
    }
    expect(count).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 60_000);

  it('in docs/cli.md and the README', async () => {
    const problems: string[] = [];
    for (const doc of ['docs/cli.md', 'README.md']) {
      const text = readFileSync(join(root, doc), 'utf8');
      // Table cells and inline code hold one example each; code blocks one a line.
      const lines = text.split('\n').flatMap((line) => {
        const inline = [...line.matchAll(/`((?:npx )?dsar [^`]*)`/g)].map((m) => m[1]);
        return inline.length > 0 ? inline : [line];
      });
      expect({ doc, calls: lines.flatMap(dsarCalls).length > (doc === 'README.md' ? 10 : 60) }).toEqual({ doc, calls: true });
      problems.push(...(await problemsOf(lines, doc)));
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
