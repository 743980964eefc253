import { type Command, InvalidArgumentError, Option } from 'commander';
import { ApiClient } from './api-client';
import { dataBody, getPath, type JsonObject, setPath } from './body';
import type { Endpoint } from './endpoints';
import { CliError, usage } from './errors';
import { Output, type OutputFormat, type View } from './output';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/v1';

/** The ids the help's examples show. */
export const EXAMPLE_IDS = { request: '44cec96b-6062-4b16-9782-40f47fc74dc0', artifact: '9d1e6c1b-2f4a-4c55-8a1f-6d2e3b4c5a69' } as const;

/** The streams a run writes to (the process's, or a test's). */
export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** The global flags, after their environment variables and defaults. */
export interface Globals {
  baseUrl: string;
  token: string | undefined;
  idempotencyKey: string | undefined;
  retry: number;
  output: OutputFormat;
  verbose: boolean;
  progress: boolean;
}

/** What an action works with. */
export interface Context {
  api: ApiClient;
  out: Output;
  /** The command's name without `dsar`, e.g. `requests create` (the envelope's `meta.command`). */
  command: string;
  globals: Globals;
  io: Io;
}

export interface Result {
  data: unknown;
  view?: View;
}

type Options = Record<string, unknown>;
type Handler = (ctx: Context, args: string[], opts: Options) => Promise<Result | undefined>;

/** A flag that sets one field of a JSON body or one query parameter. */
export interface FieldFlag {
  /** Commander flags, e.g. `--message <text>`. */
  flags: string;
  description: string;
  /** The body field (dotted path) or query parameter the flag sets. */
  field: string;
  parse?: (value: string, previous: unknown) => unknown;
  /** The values the flag allows (checked before anything is sent, and completed by the shell); not with `parse`, which commander would replace. */
  choices?: readonly string[];
  /** The field must be in the body, from the flag or from `--data`; else a usage error. */
  required?: boolean;
  /**
   * A switch (a flag without a value of its own) that sets the field to this value: `--confirm` sends
   * `resolution: confirmed`. The switches of one field exclude each other (a usage error names both).
   */
  value?: string;
}

/** A flag sent as one request header (a task token), also read from an environment variable so that it stays out of the shell's history. */
export interface HeaderFlag {
  /** Commander flags, e.g. `--task-token <token>`. */
  flags: string;
  description: string;
  /** The header's name, lower case. */
  header: string;
  /** The variable read when the flag is not given. */
  env?: string;
  /** Without it, a usage error before anything is sent. */
  required?: boolean;
}

/** A command that calls one endpoint: positional arguments are its path parameters, flags its body fields and query. */
export interface ApiCommandSpec {
  /** Name and arguments, named as the path parameters: `decide <id> <appealId>`. */
  name: string;
  summary: string;
  endpoint: Endpoint;
  body?: readonly FieldFlag[];
  query?: readonly FieldFlag[];
  /** Flags sent as request headers. */
  headers?: readonly HeaderFlag[];
  examples: readonly string[];
  view?: View;
  /** Last changes to the body (defaults that depend on the time, say). */
  complete?: (body: JsonObject, opts: Options) => void;
}

export const intArg =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`);
    return Number(value);
  };

/** A comma-separated list (`a,b`), also given several times. */
export const listArg = (value: string, previous: unknown): string[] => [
  ...(Array.isArray(previous) ? (previous as string[]) : []),
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** Each use of the flag adds one value. */
export const repeatArg = (value: string, previous: unknown): string[] => [...(Array.isArray(previous) ? (previous as string[]) : []), value];

/** `Examples:` below a command's help. */
export function examples(cmd: Command, lines: readonly string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** The command's name under `dsar`: `audit checkpoints verify`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

const endpointsOfCommand = new WeakMap<Command, readonly Endpoint[]>();

/** The endpoints a command calls (cli.spec.ts checks that together they cover the OpenAPI document). */
export function endpointsOf(cmd: Command): readonly Endpoint[] {
  return endpointsOfCommand.get(cmd) ?? [];
}

/**
 * A global option's value: given on the command line after a command (the nearest wins), else before it, else
 * from its environment variable or default (the program's own option has those).
 */
function globalOption(cmd: Command, key: string): unknown {
  let root = cmd;
  for (let c: Command | null = cmd; c; c = c.parent) {
    if (c.getOptionValueSource(key) === 'cli') return c.getOptionValue(key) as unknown;
    root = c;
  }
  return root.getOptionValue(key) as unknown;
}

function globalsOf(cmd: Command, io: Io): Globals {
  const o = Object.fromEntries(['baseUrl', 'token', 'idempotencyKey', 'retry', 'output', 'verbose', 'progress'].map((k) => [k, globalOption(cmd, k)])) as Options;
  const baseUrl = String(o.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw usage(`--base-url is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--base-url must be an http or https URL: ${baseUrl}`);
  return {
    baseUrl,
    token: (o.token as string | undefined) || undefined,
    idempotencyKey: (o.idempotencyKey as string | undefined) || undefined,
    retry: (o.retry as number | undefined) ?? 0,
    output: (o.output as OutputFormat | undefined) ?? defaultFormat(io),
    verbose: Boolean(o.verbose),
    progress: o.progress !== false,
  };
}

/** `table` for people at a terminal, `json` for everything else. */
export function defaultFormat(io: Io): OutputFormat {
  return io.stdout.isTTY ? 'table' : 'json';
}

/** Builds the commands and runs their actions: every failure becomes the error envelope and an exit code. */
export class Kit {
  exitCode = 0;

  constructor(
    readonly io: Io,
    private readonly userAgent: string,
  ) {}

  /** Sets a command's action; `endpoints` are the ones it calls. */
  act(cmd: Command, endpoints: readonly Endpoint[], handler: Handler): Command {
    endpointsOfCommand.set(cmd, endpoints);
    return cmd.action(async (...raw: unknown[]) => {
      const self = raw[raw.length - 1] as Command;
      const command = commandPath(self);
      let out = new Output(defaultFormat(this.io), this.io.stdout, this.io.stderr);
      try {
        const globals = globalsOf(self, this.io);
        out = await Output.create(globals.output, this.io.stdout, this.io.stderr);
        const api = new ApiClient({
          baseUrl: globals.baseUrl,
          token: globals.token,
          idempotencyKey: globals.idempotencyKey,
          retries: globals.retry,
          verbose: globals.verbose,
          progressTo: globals.progress && this.io.stderr.isTTY ? this.io.stderr : undefined,
          stderr: this.io.stderr,
          userAgent: this.userAgent,
        });
        const result = await handler({ api, out, command, globals, io: this.io }, self.processedArgs as string[], self.opts<Options>());
        if (result) out.success(command, result.data, result.view);
      } catch (e) {
        const error = e instanceof CliError ? e : CliError.of('CLI-INTERNAL', e instanceof Error ? (e.stack ?? e.message) : String(e));
        out.failure(command, error);
        this.exitCode = error.exitCode;
      }
    });
  }

  /** A command that calls one endpoint with its path parameters, body flags (or `--data`) and query flags, and prints the answer. */
  api(parent: Command, spec: ApiCommandSpec): Command {
    const cmd = parent.command(spec.name).description(spec.summary);
    const { endpoint } = spec;
    const hasJson = endpoint.body === 'json' || endpoint.body === 'optional-json';
    const given = [...(spec.body ?? []).map((f) => ({ ...f, inBody: true })), ...(spec.query ?? []).map((f) => ({ ...f, inBody: false }))];
    const options = given.map((f) => {
      const option = new Option(f.flags, f.description + (f.required && f.value === undefined ? ' (required, here or in --data)' : ''));
      if (f.parse) option.argParser(f.parse);
      if (f.choices) option.choices(f.choices);
      if (f.value !== undefined) option.preset(f.value);
      return option;
    });
    given.forEach((f, i) => {
      // The switches of one field exclude each other: commander refuses `--confirm --separate` before anything is sent.
      const others = f.value === undefined ? [] : given.flatMap((g, j) => (j !== i && g.value !== undefined && g.field === f.field ? [options[j].attributeName()] : []));
      if (others.length > 0) options[i].conflicts(others);
      cmd.addOption(options[i]);
    });
    const flags = given.map((f, i) => ({ ...f, key: options[i].attributeName() }));
    const headerFlags = (spec.headers ?? []).map((h) => {
      const option = new Option(h.flags, h.description + (h.env ? ` (default: $${h.env})` : '') + (h.required ? ' (required)' : ''));
      if (h.env) option.env(h.env);
      cmd.addOption(option);
      return { ...h, key: option.attributeName() };
    });
    if (hasJson) cmd.option('--data <json>', 'the JSON body: inline, @file.json or - (standard input); flags override its fields');
    examples(cmd, spec.examples);
    return this.act(cmd, [endpoint], async (ctx, args, opts) => {
      const body = hasJson ? await dataBody(opts.data as string | undefined) : {};
      const query: Record<string, string> = {};
      for (const f of flags) {
        // A flag read from a file (`--pack @pack.json`) parses to a promise.
        const value: unknown = await opts[f.key];
        if (value === undefined) continue;
        if (f.inBody) setPath(body, f.field, value);
        else query[f.field] = Array.isArray(value) ? value.join(',') : String(value);
      }
      spec.complete?.(body, opts);
      for (const field of new Set((spec.body ?? []).filter((f) => f.required).map((f) => f.field))) {
        // A field set by switches names each of them: `--confirm or --separate is required`.
        const names = (spec.body ?? []).filter((f) => f.required && f.field === field).map((f) => f.flags.split(' ')[0]);
        if (getPath(body, field) === undefined) throw usage(`${names.join(' or ')} is required (or give ${field} in --data)`);
      }
      // A body the route may go without is left out when nothing was given for it.
      const json = endpoint.body === 'json' || Object.keys(body).length > 0 ? body : undefined;
      const headers: Record<string, string> = {};
      for (const h of headerFlags) {
        const value = opts[h.key] as string | undefined;
        if (value) headers[h.header] = value;
        else if (h.required) throw usage(`${h.flags.split(' ')[0]} is required${h.env ? ` (or set ${h.env})` : ''}`);
      }
      const answer = await ctx.api.call({ endpoint, params: paramsOf(cmd, args), query, headers, json: hasJson ? json : undefined });
      return { data: answer.body, view: spec.view };
    });
  }
}

/** Positional arguments by name (`<id>` → `id`), for the endpoint's path. */
export function paramsOf(cmd: Command, args: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  cmd.registeredArguments.forEach((a, i) => {
    if (args[i] !== undefined) params[a.name()] = args[i];
  });
  return params;
}
