import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** A secret given as a value (`<NAME>`), refused with what `problemOf` finds wrong with it. */
export function secretTextField(problemOf: (text: string) => string | undefined) {
  return z
    .string()
    .superRefine((text, ctx) => {
      const problem = problemOf(text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional();
}

/**
 * A `<NAME>_FILE` setting: the path of a file that holds a secret (a mounted
 * Secret), used when `<NAME>` itself is not set. The file is read at start-up
 * so that a missing file, or a secret `problemOf` refuses, is reported with
 * every other configuration problem.
 */
export function secretFileField(problemOf: (text: string) => string | undefined) {
  return z
    .string()
    .min(1)
    .superRefine((file, ctx) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `${file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
        return;
      }
      const problem = problemOf(text);
      if (problem) ctx.addIssue({ code: 'custom', message: `${file} ${problem}` });
    })
    .optional();
}
