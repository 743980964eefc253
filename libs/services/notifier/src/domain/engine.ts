import Handlebars from 'handlebars';
import { HELPERS, type RenderData } from './helpers';

/**
 * The Handlebars instance the notifier renders with: isolated, so helpers
 * registered here cannot collide with (or be replaced by) anything else in
 * the process that uses Handlebars.
 */
const engine = Handlebars.create();
for (const [name, helper] of Object.entries(HELPERS)) engine.registerHelper(name, helper);

export type TemplatePart = 'subject' | 'text' | 'html';
export const TEMPLATE_PARTS: readonly TemplatePart[] = ['subject', 'text', 'html'];

type Compiled = Handlebars.TemplateDelegate;

/**
 * Compiled templates by part and source. Built-ins and tenant overrides share
 * it: the same source compiles once. Bounded, because overrides come from
 * configuration that can change while the process runs.
 */
const compiled = new Map<string, Compiled>();
const MAX_COMPILED = 5_000;

function compile(source: string, part: TemplatePart): Compiled {
  const key = `${part}\u0000${source}`;
  let template = compiled.get(key);
  if (!template) {
    // Subjects and plain text are not HTML: escaping would turn "R&D" into "R&amp;D".
    template = engine.compile(source, { noEscape: part !== 'html', strict: false });
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, template);
  }
  return template;
}

/** Renders one part; the caller tidies whitespace (render.ts). */
export function renderTemplate(source: string, part: TemplatePart, context: object, data: RenderData): string {
  return compile(source, part)(context, { data });
}

/**
 * Checks a template before it is accepted: it parses, every helper it calls
 * exists, it uses no partials or decorators (none are registered, so they
 * would fail only when the branch is reached), and it renders against an
 * empty context. Returns the problem, or undefined when there is none.
 */
export function templateProblem(source: string, part: TemplatePart): string | undefined {
  let ast: ReturnType<typeof engine.parse>;
  try {
    ast = engine.parse(source);
  } catch (error) {
    return (error as Error).message;
  }
  const problem = astProblem(ast);
  if (problem) return problem;
  try {
    renderTemplate(source, part, { requestId: '', reference: '' }, { locale: 'en', timeZone: 'UTC' });
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

const UNSUPPORTED = new Set(['PartialStatement', 'PartialBlockStatement', 'Decorator', 'DecoratorBlock']);

function astProblem(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const problem = astProblem(child);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!node || typeof node !== 'object') return undefined;
  const n = node as { type?: string; path?: { original?: unknown; type?: string }; params?: unknown[]; hash?: unknown; loc?: { start?: { line?: number } } };
  const line = n.loc?.start?.line;
  const where = line ? ` (line ${line})` : '';
  if (n.type && UNSUPPORTED.has(n.type)) return `partials and decorators are not supported${where}`;
  const call = n.type === 'SubExpression' || ((n.type === 'MustacheStatement' || n.type === 'BlockStatement') && ((n.params?.length ?? 0) > 0 || !!n.hash));
  if (call && n.path?.type === 'PathExpression') {
    const name = String(n.path.original);
    if (!Object.prototype.hasOwnProperty.call(engine.helpers, name)) return `unknown helper "${name}"${where}`;
  }
  for (const [key, value] of Object.entries(n)) {
    if (key !== 'loc' && value && typeof value === 'object') {
      const problem = astProblem(value);
      if (problem) return problem;
    }
  }
  return undefined;
}
