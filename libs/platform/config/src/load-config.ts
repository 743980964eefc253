import type { z } from 'zod';
import { ConfigError } from './config-error';

type Env = Record<string, string | undefined>;

/**
 * Validates the environment against an app's schema. Empty strings count as
 * unset, so `FOO=` falls back to the default instead of failing a type check.
 */
export function loadConfig<S extends z.ZodType>(app: string, schema: S, env: Env = process.env): z.infer<S> {
  const cleaned: Env = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(root)';
    return `${key}: ${issue.message}`;
  });
  throw new ConfigError(app, problems);
}

/** For mains: print every problem and stop the process. */
export function loadConfigOrExit<S extends z.ZodType>(app: string, schema: S, env: Env = process.env): z.infer<S> {
  try {
    return loadConfig(app, schema, env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
}
