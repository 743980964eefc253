import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, Command, CommanderError, Option } from 'commander';
import { bashCompletion, zshCompletion } from './completion';
import { CLI_ERRORS, CliError, type CliErrorCode, EXIT, EXIT_CODES, exitText } from './errors';
import { DEFAULT_BASE_URL, defaultFormat, examples, intArg, type Io, Kit } from './kit';
import { OUTPUT_FORMATS, Output, type OutputFormat } from './output';

/** What a module of commands exports: it adds its commands to the program. */
export type Register = (program: Command, kit: Kit) => void;

/** A module of commands: the top-level commands it adds (cli.spec.ts checks them), loaded only when one is used. */
export interface CommandModule {
  /** The help's heading above this module's commands and the following modules'. */
  group?: string;
  commands: readonly string[];
  load: () => Promise<Register>;
}

/** Every module of commands, in the order of the help. */
export const COMMAND_MODULES: readonly CommandModule[] = [
  { group: 'Requests and their workflow:', commands: ['requests'], load: async () => (await import('./commands/requests')).requestsCommands },
  { commands: ['acknowledge', 'clarify', 'extend', 'refuse', 'close', 'requestor', 'authority', 'clock'], load: async () => (await import('./commands/workflow')).workflowCommands },
  { commands: ['verification'], load: async () => (await import('./commands/verification')).verificationCommands },
  { group: 'Fulfilment and delivery:', commands: ['manifest', 'fulfil', 'callback'], load: async () => (await import('./commands/fulfilment')).fulfilmentCommands },
  { commands: ['delivery'], load: async () => (await import('./commands/delivery')).deliveryCommands },
  { commands: ['systems', 'tasks'], load: async () => (await import('./commands/data-systems')).dataSystemsCommands },
  { commands: ['appeals'], load: async () => (await import('./commands/appeals')).appealsCommands },
  { commands: ['notifications'], load: async () => (await import('./commands/notifications')).notificationsCommands },
  { commands: ['stats'], load: async () => (await import('./commands/stats')).statsCommands },
  { group: 'Audit and administration:', commands: ['audit'], load: async () => (await import('./commands/audit')).auditCommands },
  { commands: ['whoami', 'retention', 'policies'], load: async () => (await import('./commands/admin')).adminCommands },
];

/** A module of commands, loaded. */
export interface LoadedModule {
  module: CommandModule;
  register: Register;
}

/** The global options that take a value, skipped when looking for the command's name. */
const GLOBAL_VALUE_FLAGS = new Set(['--base-url', '--token', '--idempotency-key', '--retry', '--output', '-o']);

/**
 * The modules a run needs: the one that has the command the arguments name, none for `--version` alone, and all of
 * them for the program's help, `completion` (whose scripts cover the whole tree), or a name no module has (commander
 * suggests the nearest one).
 */
export async function loadCommands(argv: readonly string[] = []): Promise<LoadedModule[]> {
  let name: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (!arg.startsWith('-')) {
      name = arg;
      break;
    }
    if (GLOBAL_VALUE_FLAGS.has(arg)) i++;
  }
  const owner = name === undefined ? undefined : COMMAND_MODULES.find((m) => m.commands.includes(name));
  let wanted: readonly CommandModule[] = COMMAND_MODULES;
  if (owner) wanted = [owner];
  else if (name === undefined && argv.length > 0 && argv.every((a) => a === '-V' || a === '--version')) wanted = [];
  return Promise.all(wanted.map(async (module) => ({ module, register: await module.load() })));
}

// package.json is where the product's version lives; read here, not through @dsar/contracts' PRODUCT_VERSION, because
// loading that module's index (every schema) at start would slow each command down. cli.spec.ts checks they agree.
const VERSION = (JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;

const HELP_FOOTER = `
Output:
  --output json (the default when standard output is not a terminal) prints
    {"ok": true, "data": …, "meta": {"command": "requests get"}}
    {"ok": false, "error": {"code": "SVC-BE-1003", "message": "…", "requestId": "…"}, "meta": {"command": "requests get"}}
  (requestId: the server's id of the call, to quote when reporting a problem; absent when no server answered)
  --output yaml prints the same envelope as YAML; --output table (the default on a terminal) prints the data for
  people and errors on standard error. Error codes are the API's SVC-BE-… codes (docs/errors.md) or the CLI's:
${(Object.keys(CLI_ERRORS) as CliErrorCode[]).map((code) => `    ${code.padEnd(22)} exit ${exitText(code)}`).join('\n')}

Exit codes:
${Object.entries(EXIT_CODES)
  .map(([code, meaning]) => `  ${code}  ${meaning}`)
  .join('\n')}

Environment:
  DSAR_BASE_URL       the API's base URL (--base-url wins), default ${DEFAULT_BASE_URL}
  DSAR_TOKEN          the API token, sent as Authorization: Bearer (--token wins)
  DSAR_AUDIT_KEY_ID   the audit ledger's key id that checkpoints must be signed by (--trusted-key-id wins)

Examples:
  $ export DSAR_TOKEN=$(cat .data/dev-token)        # the development admin key of \`npm start\`
  $ dsar requests create --jurisdiction DE --channel email --text "Please send me my data."
  $ dsar requests list --at-risk-days 7 --all
  $ dsar manifest upload <id> --file export.zip     # then another person reviews it (four eyes):
  $ dsar manifest validate <id> --action approved --token "$(cat .data/reviewer-token)"
  $ dsar audit export <id> --out audit.jsonl && dsar audit verify --file audit.jsonl
  $ source <(dsar completion bash)

Every command has --help with its own examples. Reference: docs/cli.md.
`;

/** The command tree with the modules given (loadCommands: all of them, or those the arguments need); `kit` runs the actions and keeps the exit code. */
export function buildProgram(kit: Kit, modules: readonly LoadedModule[]): Command {
  const program = new Command('dsar')
    .description('Command-line client of the DSAR service: requests, their workflow and clock, verification, fulfilment, delivery, appeals, audit, retention and policies.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(new Option('--base-url <url>', "the API's base URL").env('DSAR_BASE_URL').default(DEFAULT_BASE_URL))
    .addOption(new Option('--token <token>', 'API token, sent as Authorization: Bearer').env('DSAR_TOKEN'))
    .option('--idempotency-key <key>', 'Idempotency-Key of a POST or PUT; a retry sends the same one (with --retry and none given, one is made)')
    .option('--retry <n>', 'retry a call that met a network error, a 5xx, a 429 or a 409 in-progress, n times', intArg(0, 10), 0)
    .addOption(new Option('-o, --output <format>', 'json, table or yaml (default: table on a terminal, else json)').choices(OUTPUT_FORMATS))
    .option('-v, --verbose', 'log each HTTP call on standard error: method, URL, status, time (never the token)')
    .option('--no-progress', 'no progress bars for uploads and downloads')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    // The program's options are its own before a command only, so that a command may have a `--version` of its own;
    // every command takes the global options after it too (shareGlobalOptions).
    .enablePositionalOptions()
    .helpCommand(false)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => kit.io.stdout.write(s), writeErr: (s) => kit.io.stderr.write(s) })
    .addHelpText('after', HELP_FOOTER);

  for (const { module, register } of modules) {
    if (module.group) program.commandsGroup(module.group);
    register(program, kit);
  }

  program.commandsGroup('Shell:');
  const completion = program
    .command('completion')
    .description('print the shell completion script for bash or zsh')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']));
  examples(completion, [
    'dsar completion bash > ~/.local/share/bash-completion/completions/dsar',
    'dsar completion zsh > "${fpath[1]}/_dsar"              # a directory of $fpath, before compinit',
    'source <(dsar completion bash)                          # this shell only (or in ~/.bashrc)',
  ]);
  completion.action((shell: string) => {
    kit.io.stdout.write(shell === 'bash' ? bashCompletion(program) : zshCompletion(program));
  });
  shareGlobalOptions(program, program);
  return program;
}

/**
 * Gives every command a hidden copy of the global options (not `--version` or `--help`), so that they work after
 * the command's name too: `dsar requests list --output json`. The copies have no defaults or environment
 * variables; the program's own options keep those (Kit reads a flag given anywhere before them).
 */
function shareGlobalOptions(program: Command, cmd: Command): void {
  for (const sub of cmd.commands) {
    for (const o of program.options) {
      if (o.long === '--version' || o.long === '--help' || sub.options.some((own) => own.long === o.long)) continue;
      const copy = new Option(o.flags, o.description).hideHelp();
      if (o.parseArg) copy.argParser(o.parseArg);
      if (o.argChoices) copy.choices(o.argChoices);
      sub.addOption(copy);
    }
    shareGlobalOptions(program, sub);
  }
}

/** The output format the arguments ask for, before commander has parsed them (for usage errors). */
function requestedFormat(argv: readonly string[], io: Io): OutputFormat {
  const i = argv.findIndex((a) => a === '--output' || a === '-o' || a.startsWith('--output='));
  const value = i < 0 ? undefined : argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  return (OUTPUT_FORMATS as readonly string[]).includes(value ?? '') ? (value as OutputFormat) : defaultFormat(io);
}

/** The command words of the arguments (`requests create`), as far as they name commands. */
function commandWords(program: Command, argv: readonly string[]): string {
  const words: string[] = [];
  let cmd: Command | undefined = program;
  for (const arg of argv) {
    const next: Command | undefined = cmd?.commands.find((c) => c.name() === arg);
    if (!next) continue;
    words.push(arg);
    cmd = next;
  }
  return words.join(' ');
}

/** Runs `dsar` with the arguments after the program name; resolves to the exit code. */
export async function run(argv: readonly string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const kit = new Kit(io, `dsar-cli/${VERSION} node/${process.versions.node}`);
  const program = buildProgram(kit, await loadCommands(argv));
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return kit.exitCode;
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return EXIT.ok;
    const format = requestedFormat(argv, io);
    // Commander has told the person on standard error; a script reading JSON or YAML gets the envelope.
    if (format !== 'table') (await Output.create(format, io.stdout, io.stderr)).failure(commandWords(program, argv), CliError.of('CLI-USAGE', e.message.replace(/^error: /, '')));
    return EXIT.usage;
  }
}
