/** Raised at boot when the environment does not satisfy an app's schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(
    readonly app: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${app}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
