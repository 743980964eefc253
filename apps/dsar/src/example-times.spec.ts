import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { buildProgram, type LoadedModule, loadCommands } from './cli';
import { commandPath, type Io, Kit } from './kit';

/**
 * The examples a new user copies take the current time: a request created with a fixed receipt date is overdue once
 * that date is a month or so behind, and a pause at a fixed date falls before the request's receipt. So no example
 * names a date; the receipt defaults to now (the CLI), or comes from `date` (curl).
 */
const root = join(__dirname, '../../..');
const DATE = /\b\d{4}-\d{2}-\d{2}/;
let modules: LoadedModule[];
beforeAll(async () => {
  modules = await loadCommands();
});

/** The help text of the command at `path` ('' for `dsar` itself), examples included. */
function helpOf(path: string): string {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  const program = buildProgram(new Kit({ stdout, stderr: new PassThrough() } as unknown as Io, 'test'), modules);
  const cmd = path ? allCommands(program).find((c) => commandPath(c) === path)! : program;
  cmd.outputHelp();
  return text;
}

function allCommands(cmd: Command, into: Command[] = []): Command[] {
  for (const c of cmd.commands) {
    into.push(c);
    allCommands(c, into);
  }
  return into;
}

/** The lines of `text` that run the CLI or call the API, and name a date. */
const datedExamples = (text: string) => text.split('\n').filter((line) => /\bdsar |curl |"receivedAt"/.test(line) && DATE.test(line));

describe('examples carry no fixed date', () => {
  it("in every command's help", () => {
    const paths = ['', ...allCommands(buildProgram(new Kit({ stdout: new PassThrough(), stderr: new PassThrough() } as unknown as Io, 'test'), modules)).map(commandPath)];
    const dated = paths.flatMap((path) => datedExamples(helpOf(path)).map((line) => `dsar ${path}: ${line.trim()}`));
    expect(dated).toEqual([]);
  });

  it('in docs/cli.md', () => {
    expect(datedExamples(readFileSync(join(root, 'docs/cli.md'), 'utf8'))).toEqual([]);
  });

  it("in the README's quick start, answers included", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Quick start');
    const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1));
    expect(start).toBeGreaterThan(0);
    expect(quickStart).toContain('dsar requests create');
    expect(quickStart.split('\n').filter((line) => DATE.test(line))).toEqual([]);
  });
});
