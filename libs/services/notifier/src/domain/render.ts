import { renderTemplate, type TemplatePart } from './engine';
import { isTimeZone } from './helpers';
import { FALLBACK_LOCALE, isNotificationKind, isStaffKind, type Locale, type NotificationKind } from './notification-kinds';
import { operatorContext } from './operator-context';
import type { TemplateOverrides } from './overrides';
import { resolveLocale } from './resolve-locale';
import { requestReference, type TemplateContext } from './template-context';
import { BUILT_IN_TEMPLATES } from './templates';

export { compileOverrides, type TemplateOverrides, type TemplateSet } from './overrides';
export { resolveLocale } from './resolve-locale';

export interface RenderOptions {
  /** IANA zone dates are shown in, e.g. "Europe/Berlin". */
  timeZone: string;
  /** A tenant's templates, preferably checked by compileOverrides when its configuration is loaded. */
  overrides?: TemplateOverrides;
}

export interface RenderedMessage {
  locale: Locale;
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders one notification. Each part is taken from the first of these that
 * renders to something: the tenant's override for the locale, the built-in
 * template for the locale, then English (the tenant's, then the built-in).
 * An override that fails or comes out blank therefore never leaves a person
 * with an empty email; compileOverrides catches most such overrides earlier.
 */
export function renderNotification(kind: NotificationKind, locale: string | null | undefined, context: TemplateContext, options: RenderOptions): RenderedMessage {
  if (!isNotificationKind(kind)) throw new Error(`unknown notification kind "${String(kind)}"`);
  if (!isTimeZone(options.timeZone)) throw new Error(`unknown time zone "${options.timeZone}" for notifications`);
  const resolved = resolveLocale(locale, context.jurisdiction);
  const complete = { ...context, reference: context.reference || requestReference(context.requestId) };
  const data = isStaffKind(kind) ? operatorContext(complete) : complete;
  const part = (name: TemplatePart) => renderPart(kind, resolved, name, data, options);
  return { locale: resolved, subject: part('subject'), text: part('text'), html: part('html') };
}

function renderPart(kind: NotificationKind, locale: Locale, part: TemplatePart, context: TemplateContext, options: RenderOptions): string {
  let failure: unknown;
  for (const candidate of candidates(kind, locale, part, options.overrides)) {
    try {
      const output = tidy(part, renderTemplate(candidate.source, part, context, { locale: candidate.locale, timeZone: options.timeZone }));
      if (!isBlank(part, output)) return output;
    } catch (error) {
      failure = error;
    }
  }
  // Only reachable if a built-in template is broken: a bug, not a tenant's mistake.
  throw failure instanceof Error ? failure : new Error(`${kind}/${locale}/${part} rendered empty`);
}

function candidates(kind: NotificationKind, locale: Locale, part: TemplatePart, overrides: TemplateOverrides | undefined) {
  const locales = locale === FALLBACK_LOCALE ? [locale] : [locale, FALLBACK_LOCALE];
  const found: Array<{ source: string; locale: Locale }> = [];
  for (const l of locales) {
    const own = overrides?.[kind]?.[l]?.[part];
    if (typeof own === 'string') found.push({ source: own, locale: l });
    const builtIn = BUILT_IN_TEMPLATES[l]?.[kind]?.[part];
    if (typeof builtIn === 'string') found.push({ source: builtIn, locale: l });
  }
  return found;
}

/**
 * Evens out whitespace: a subject is one line (a line break in a header would
 * end it), plain text loses the blank lines that false conditions leave.
 */
function tidy(part: TemplatePart, output: string): string {
  if (part === 'subject') return output.replace(/\s+/g, ' ').trim();
  if (part === 'text')
    return output
      .replace(/\r\n?/g, '\n')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  return output.trim();
}

function isBlank(part: TemplatePart, output: string): boolean {
  const visible =
    part === 'html'
      ? output
          .replace(/<!--[\s\S]*?-->/g, '')
          .replace(/<[^>]*>/g, '')
          .replace(/&nbsp;|&#160;/g, ' ')
      : output;
  return visible.trim() === '';
}
