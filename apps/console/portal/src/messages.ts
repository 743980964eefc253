import { formatWait } from './format';
import type { PortalLocale } from './language';
import type { PortalProblem } from './problems';
import { TEXTS, type Texts } from './texts';

/** The texts of the page in `locale`. */
export function textsOf(locale: PortalLocale): Texts {
  return TEXTS[locale];
}

/** A text with its `{name}` placeholders filled in; a placeholder without a value stays as it is. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}

export interface ProblemMessage {
  title: string;
  detail: string;
}

/** What the page tells the person about `problem`, in `locale`: what happened, and what to do. */
export function problemMessage(problem: PortalProblem, locale: PortalLocale): ProblemMessage {
  const texts = textsOf(locale);
  const { title, detail } = texts.problems[problem.kind];
  if (problem.kind === 'wrong_code' && problem.attemptsLeft !== null && problem.attemptsLeft > 0) {
    const plural = new Intl.PluralRules(locale).select(problem.attemptsLeft) === 'one' ? 'one' : 'other';
    return { title, detail: `${detail} ${fill(texts.attemptsLeft[plural], { count: problem.attemptsLeft })}` };
  }
  if (problem.kind === 'too_many_tries') {
    const wait = problem.retryAfterSeconds !== null && problem.retryAfterSeconds > 0 ? fill(texts.retryAfter, { when: formatWait(problem.retryAfterSeconds, locale) }) : texts.retryLater;
    return { title, detail: `${detail} ${wait}` };
  }
  return { title, detail };
}

/** Problems that end what the link can do in this tab: the page shows them alone, with nothing to retry. */
export function isFinal(problem: PortalProblem): boolean {
  return ['incomplete_link', 'invalid_link', 'expired', 'used', 'locked', 'session_ended'].includes(problem.kind);
}
