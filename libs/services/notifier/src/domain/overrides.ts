import { z } from 'zod';
import { TEMPLATE_PARTS, templateProblem } from './engine';
import { LOCALES, type Locale, NOTIFICATION_KINDS, type NotificationKind } from './notification-kinds';

/** A tenant's own wording for one kind in one locale; each part replaces the built-in one on its own. */
export interface TemplateSet {
  subject?: string;
  text?: string;
  html?: string;
}
export type TemplateOverrides = Partial<Record<NotificationKind, Partial<Record<Locale, TemplateSet>>>>;

const templateSet = z.strictObject({ subject: z.string().optional(), text: z.string().optional(), html: z.string().optional() });
const overridesSchema = z.partialRecord(z.enum(NOTIFICATION_KINDS), z.partialRecord(z.enum(LOCALES), templateSet));

/**
 * Validates a tenant's overrides as configured (e.g. parsed from YAML or
 * JSON) and compiles every template, so that a mistake is reported when the
 * configuration is loaded, naming the kind, locale and part, rather than when
 * a data subject should have been told something.
 */
export function compileOverrides(raw: unknown): TemplateOverrides {
  const parsed = overridesSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new Error(`invalid notification template overrides: ${parsed.error.issues.map(describeIssue).join('; ')}`);
  }
  const overrides = parsed.data as TemplateOverrides;
  const problems: string[] = [];
  for (const [kind, locales] of Object.entries(overrides)) {
    for (const [locale, set] of Object.entries(locales ?? {})) {
      for (const part of TEMPLATE_PARTS) {
        const source = set?.[part];
        if (source === undefined) continue;
        const problem = templateProblem(source, part);
        if (problem) problems.push(`${kind}/${locale}/${part} does not compile: ${problem}`);
      }
    }
  }
  if (problems.length) throw new Error(`invalid notification template overrides: ${problems.join('; ')}`);
  return overrides;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    if (path.length === 0) return `unknown notification kind ${keys} (known: ${NOTIFICATION_KINDS.join(', ')})`;
    if (path.length === 1) return `unknown locale ${keys} for ${path[0]} (known: ${LOCALES.join(', ')})`;
    return `unknown template part ${keys} in ${path.join('/')} (parts: ${TEMPLATE_PARTS.join(', ')})`;
  }
  return path.length ? `${path.join('/')}: ${issue.message}` : issue.message;
}
