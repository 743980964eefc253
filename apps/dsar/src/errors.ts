/** Exit codes of every `dsar` command (printed by `dsar --help`, listed in docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** A flag, argument or input that is missing or wrong; no token. Nothing was sent. */
  usage: 1,
  /** The API refused the call with a 4xx problem (its `SVC-BE-…` code is the error's code). */
  api: 2,
  /** The server failed (5xx) or could not be reached. */
  server: 3,
  /** `audit verify` or `audit checkpoints verify`: the chain or the checkpoint does not hold up. */
  verification: 4,
} as const;

/** What each exit code means: `dsar --help` prints this table (run.spec.ts holds the help to it; docs/cli.md says the same in more words). */
export const EXIT_CODES: Readonly<Record<(typeof EXIT)[keyof typeof EXIT], string>> = {
  [EXIT.ok]: 'success',
  [EXIT.usage]: 'usage error: an unknown command, a missing or invalid flag, argument or file, no token (nothing was sent)',
  [EXIT.api]: 'the API refused the call (a 4xx problem; the error code is its SVC-BE-… code)',
  [EXIT.server]: 'a server error (5xx) or the server could not be reached',
  [EXIT.verification]: 'audit verify or audit checkpoints verify: the chain or the checkpoint does not hold up',
};

/** The CLI's own error codes, beside the service's `SVC-BE-…` codes (docs/cli.md), with the exit code of each (the first is the default). */
export const CLI_ERRORS = {
  'CLI-USAGE': { exit: [EXIT.usage], meaning: 'A command, flag, argument or input file is missing or invalid (including `--data` that is not a JSON object).' },
  'CLI-NO-TOKEN': { exit: [EXIT.usage], meaning: 'No API token: pass `--token` or set `DSAR_TOKEN`.' },
  'CLI-FILE': { exit: [EXIT.usage], meaning: 'A file could not be read or written (`--file`, `--out`, `--data @file`).' },
  'CLI-NETWORK': { exit: [EXIT.server], meaning: 'The API could not be reached (connection refused, DNS, reset, timeout), after any `--retry`.' },
  'CLI-HTTP': { exit: [EXIT.api, EXIT.server], meaning: 'An error answer without a problem+json body (exit 2 for a 4xx, 3 for a 5xx), e.g. a proxy in front of the API.' },
  'CLI-BAD-RESPONSE': { exit: [EXIT.server], meaning: 'A success answer the CLI could not read (not JSON where JSON was expected).' },
  'CLI-CHAIN-INVALID': { exit: [EXIT.verification], meaning: 'An audit chain does not verify: a broken link or hash, a gap, or the server disagrees with the head.' },
  'CLI-CHECKPOINT-INVALID': { exit: [EXIT.verification], meaning: "A signed checkpoint does not verify: untrusted key, bad signature, or a root that is not its leaves'." },
  'CLI-INTERNAL': { exit: [EXIT.usage], meaning: 'An unexpected error in the CLI itself; please report it with the `--verbose` output.' },
} as const satisfies Record<string, { exit: readonly number[]; meaning: string }>;

/** The exit codes of a CLI error as the help and docs/cli.md show them: `1`, or `2 or 3`. */
export function exitText(code: CliErrorCode): string {
  return CLI_ERRORS[code].exit.join(' or ');
}

export type CliErrorCode = keyof typeof CLI_ERRORS;

/** A failure of a command: printed as `{ok: false, error: {code, message}}` and ended with its exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }

  /** The error `code`, with its exit code (the first of its codes, unless `exit` names another of them). */
  static of(code: CliErrorCode, message: string, exit?: number): CliError {
    const codes: readonly number[] = CLI_ERRORS[code].exit;
    return new CliError(code, message, exit !== undefined && codes.includes(exit) ? exit : codes[0]);
  }
}

export const usage = (message: string): CliError => CliError.of('CLI-USAGE', message);

/** A problem+json answer of the API: its code, and exit 2 for a 4xx or 3 for a 5xx. */
export class ApiError extends CliError {
  constructor(
    code: string,
    message: string,
    readonly status: number,
    /** The server's id of the call (`x-request-id`): quote it when reporting a problem. */
    readonly requestId: string | undefined,
  ) {
    super(code, message, status >= 500 ? EXIT.server : EXIT.api);
  }
}
