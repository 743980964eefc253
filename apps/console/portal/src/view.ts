import type { PortalArtifact } from '@dsar/contracts';
import { el, focusOn } from './dom';
import { formatBytes, formatDateTime, formatPercent } from './format';
import type { PortalLocale } from './language';
import { fill, problemMessage, textsOf } from './messages';
import type { PortalProblem } from './problems';
import type { Texts } from './texts';

/**
 * What the page draws, step by step: the link being checked, the code form, the files, or a problem. Each step
 * replaces the one before under the page's heading and moves the focus to its own heading or to the problem; the
 * status region (role=status) says what the page is doing for those who do not see it.
 */

/** What the page shows of the link: the request's reference and when the link expires. */
export interface LinkFacts {
  reference: string;
  expiresAt: string;
}

export interface CodeStep {
  /** While the code is on its way: the button is disabled and the status says so. */
  busy(on: boolean): void;
  /** A problem with what was typed (a wrong or incomplete code), beside the field, which gets the focus. */
  fieldProblem(problem: PortalProblem): void;
  /** A problem that is not the code's (no connection, too many tries), above the form, which gets the focus. */
  formProblem(problem: PortalProblem): void;
}

export interface FileRow {
  started(): void;
  /** `total` null: no Content-Length, the progress is indeterminate and the text says the bytes received. */
  progressed(received: number, total: number | null): void;
  saved(): void;
  failed(problem: PortalProblem): void;
}

let ids = 0;
const nextId = (prefix: string) => `${prefix}-${++ids}`;

export class PortalView {
  private locale: PortalLocale;

  constructor(
    private readonly content: HTMLElement,
    private readonly heading: HTMLElement,
    private readonly status: HTMLElement,
    locale: PortalLocale,
  ) {
    this.locale = locale;
    this.speak(locale);
  }

  private get texts(): Texts {
    return textsOf(this.locale);
  }

  /** Switches the page to `locale`: `<html lang>`, the title and the heading; the next step is drawn in it. */
  speak(locale: PortalLocale): void {
    this.locale = locale;
    document.documentElement.lang = locale;
    document.title = this.texts.title;
    this.heading.textContent = this.texts.title;
  }

  announce(text: string): void {
    this.status.textContent = text;
  }

  private show(...nodes: (Node | null)[]): void {
    this.content.replaceChildren(...nodes.filter((n): n is Node => n !== null));
  }

  private facts(facts: LinkFacts | null): HTMLElement | null {
    if (!facts) return null;
    return el(
      'dl',
      { class: 'facts' },
      el('div', {}, el('dt', {}, this.texts.reference), el('dd', {}, facts.reference)),
      el('div', {}, el('dt', {}, this.texts.validUntil), el('dd', {}, el('time', { datetime: facts.expiresAt }, formatDateTime(facts.expiresAt, this.locale)))),
    );
  }

  /** A problem in words: a heading of its own when it is the page's whole step, a strong first line inside a step. */
  private problemBox(problem: PortalProblem, alone: boolean): HTMLElement {
    const { title, detail } = problemMessage(problem, this.locale);
    const titleId = nextId('problem');
    const titleElement = alone ? el('h2', { id: titleId }, title) : el('p', { id: titleId, class: 'problem-title' }, title);
    return el('div', { class: 'problem', role: 'alert', tabindex: -1, 'aria-labelledby': titleId }, titleElement, el('p', {}, detail));
  }

  loading(): void {
    this.show(el('p', { class: 'muted' }, this.texts.checking));
    this.announce(this.texts.checking);
  }

  /** A problem that ends what the page can do in this tab (finally); the focus moves to it. */
  final(problem: PortalProblem, facts: LinkFacts | null = null): void {
    const box = this.problemBox(problem, true);
    this.show(box, this.facts(facts));
    this.announce('');
    focusOn(box);
  }

  /** A problem that may pass (no connection, too many tries), with a button to try again. */
  retry(problem: PortalProblem, onRetry: () => void): void {
    const box = this.problemBox(problem, true);
    const again = el('button', { type: 'button', class: 'primary' }, this.texts.tryAgain);
    again.addEventListener('click', onRetry);
    this.show(box, again);
    this.announce('');
    focusOn(box);
  }

  codeStep(facts: LinkFacts, onSubmit: (typed: string) => void): CodeStep {
    const t = this.texts;
    const heading = el('h2', { id: 'code-heading', tabindex: -1 }, t.codeHeading);
    const notice = el('div', { class: 'notice' });
    const hint = el('p', { id: 'code-hint', class: 'hint' }, t.codeHint);
    const error = el('p', { id: 'code-error', class: 'field-error', hidden: true });
    const input = el('input', {
      id: 'code',
      name: 'code',
      type: 'text',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      autocapitalize: 'off',
      spellcheck: 'false',
      enterkeyhint: 'go',
      maxlength: 32,
      required: true,
      'aria-describedby': 'code-hint',
    });
    const submit = el('button', { type: 'submit', class: 'primary' }, t.codeSubmit);
    const form = el('form', { novalidate: true, 'aria-labelledby': 'code-heading' }, el('div', { class: 'field' }, el('label', { for: 'code' }, t.codeLabel), hint, error, input), submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!submit.disabled) onSubmit(input.value);
    });
    this.show(this.facts(facts), heading, el('p', {}, t.codeIntro), notice, form);
    focusOn(heading);

    const clear = () => {
      notice.replaceChildren();
      error.hidden = true;
      error.replaceChildren();
      input.removeAttribute('aria-invalid');
      input.setAttribute('aria-describedby', 'code-hint');
    };
    return {
      busy: (on) => {
        submit.disabled = on;
        form.setAttribute('aria-busy', String(on));
        if (on) {
          clear();
          this.announce(t.codeChecking);
        }
      },
      fieldProblem: (problem) => {
        const { title, detail } = problemMessage(problem, this.locale);
        error.replaceChildren(el('strong', {}, title), ' ', detail);
        error.hidden = false;
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', 'code-hint code-error');
        this.announce(`${title}. ${detail}`);
        focusOn(input);
        input.select();
      },
      formProblem: (problem) => {
        const box = this.problemBox(problem, false);
        notice.replaceChildren(box);
        this.announce('');
        focusOn(box);
      },
    };
  }

  filesStep(facts: LinkFacts | null, artifacts: readonly PortalArtifact[], onDownload: (artifact: PortalArtifact, row: FileRow) => void): void {
    const t = this.texts;
    const heading = el('h2', { id: 'files-heading', tabindex: -1 }, t.filesHeading);
    const rows = artifacts.map((artifact) => this.fileRow(artifact, onDownload));
    this.show(this.facts(facts), heading, el('p', {}, t.filesIntro), el('ul', { class: 'files', 'aria-labelledby': 'files-heading' }, ...rows));
    this.announce('');
    focusOn(heading);
  }

  private fileRow(artifact: PortalArtifact, onDownload: (artifact: PortalArtifact, row: FileRow) => void): HTMLElement {
    const t = this.texts;
    const name = artifact.title.trim() !== '' ? artifact.title : artifact.filename;
    const meta = [name !== artifact.filename ? artifact.filename : null, formatBytes(artifact.size, this.locale)].filter((part) => part !== null && part !== '').join(' · ');
    // Named by what it shows and the file's name beside it, in every language: `Download Profile data`.
    const nameId = nextId('file');
    const buttonId = nextId('download');
    const button = el('button', { type: 'button', id: buttonId, class: 'primary', 'aria-labelledby': `${buttonId} ${nameId}` }, t.download);
    const bar = el('progress', { max: 100, 'aria-label': fill(t.progress, { name }) });
    const percent = el('span', { class: 'percent' });
    const progress = el('div', { class: 'progress', hidden: true }, bar, percent);
    const done = el('p', { class: 'done', hidden: true });
    const notice = el('div', { class: 'notice' });
    const row: FileRow = {
      started: () => {
        button.disabled = true;
        done.hidden = true;
        notice.replaceChildren();
        bar.value = 0;
        percent.textContent = formatPercent(0, this.locale);
        progress.hidden = false;
        this.announce(fill(t.downloading, { name }));
      },
      progressed: (received, total) => {
        if (total !== null && total > 0) {
          bar.value = Math.min(100, (received / total) * 100);
          percent.textContent = formatPercent(received / total, this.locale);
        } else {
          // No value: the bar is indeterminate, and the text says how much has come.
          bar.removeAttribute('value');
          percent.textContent = formatBytes(received, this.locale);
        }
      },
      saved: () => {
        bar.value = 100;
        percent.textContent = formatPercent(1, this.locale);
        button.disabled = false;
        button.textContent = t.downloadAgain;
        done.textContent = fill(t.saved, { name });
        done.hidden = false;
        this.announce(fill(t.saved, { name }));
      },
      failed: (problem) => {
        button.disabled = false;
        progress.hidden = true;
        const box = this.problemBox(problem, false);
        notice.replaceChildren(box);
        this.announce('');
        focusOn(box);
      },
    };
    button.addEventListener('click', () => onDownload(artifact, row));
    return el('li', { class: 'file' }, el('p', { id: nameId, class: 'file-name' }, name), el('p', { class: 'file-meta' }, meta), button, progress, done, notice);
  }
}
