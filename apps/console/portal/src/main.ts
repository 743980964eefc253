import type { PortalArtifact } from '@dsar/contracts';
import { type Fetch, type LinkView, openDownload, readLink, sendCode } from './api';
import { isWholeCode, normalisedCode } from './code';
import { el } from './dom';
import { contentLengthOf, readWithProgress } from './download';
import { type DeliveryLink, linkFromFragment } from './fragment';
import { localeFromBrowser } from './language';
import { isFinal } from './messages';
import type { PortalProblem } from './problems';
import { clearSaved, readSaved, type Saved, type SavedSession, writeSaved } from './saved';
import { type FileRow, type LinkFacts, PortalView } from './view';

/**
 * The person's download page (docs/delivery.md): the link from the email, the code from the second email, then the
 * files, each downloaded with its progress. Plain DOM and fetch; the API decides everything (the code, the attempts,
 * the lock, the session), the page only says it in the person's language.
 */

/** Long enough for every browser to have started saving the file the object URL names before it is revoked. */
const REVOKE_AFTER_MS = 60_000;

const fetchApi: Fetch = (input, init) => fetch(input, init);

/** The tab's sessionStorage; null where the browser refuses it (storage disabled): the page then keeps nothing. */
function tabStorage(): Storage | null {
  try {
    const storage = window.sessionStorage;
    storage.getItem('probe');
    return storage;
  } catch {
    return null;
  }
}

class Portal {
  private saved: Saved | undefined;
  private readonly storage = tabStorage();

  constructor(private readonly view: PortalView) {}

  start(): void {
    this.saved = this.storage ? readSaved(this.storage) : undefined;
    if (location.hash !== '' && location.hash !== '#') {
      const link = linkFromFragment(location.hash);
      // The credential does not stay in the address (history, a shared screen, a bookmark): the tab keeps it.
      history.replaceState(history.state, '', `${location.pathname}${location.search}`);
      if (!link) return this.end({ kind: 'incomplete_link' }, true);
      if (!this.saved || !sameLink(this.saved.link, link)) this.keep({ link, view: null, session: null });
    }
    const saved = this.saved;
    if (!saved) return this.end({ kind: 'incomplete_link' });
    if (saved.view) this.view.speak(saved.view.language);
    if (saved.session) {
      if (Date.parse(saved.session.sessionExpiresAt) > Date.now()) return this.showFiles(saved.session);
      this.keep({ ...saved, session: null });
      return this.end({ kind: 'expired' });
    }
    void this.checkLink(saved.link);
  }

  private keep(saved: Saved): void {
    this.saved = saved;
    try {
      if (this.storage) writeSaved(this.storage, saved);
    } catch {
      // A full or refused storage costs only the reload: the page goes on with what it holds.
    }
  }

  private facts(): LinkFacts | null {
    const view = this.saved?.view;
    return view ? { reference: view.reference, expiresAt: view.expiresAt } : null;
  }

  /** A problem that ends the page; `forget` drops what the tab kept (a new link that is not one). */
  private end(problem: PortalProblem, forget = false): void {
    if (forget && this.storage) {
      clearSaved(this.storage);
      this.saved = undefined;
    }
    this.view.final(problem, this.facts());
  }

  private async checkLink(link: DeliveryLink): Promise<void> {
    this.view.loading();
    const answer = await readLink(link, fetchApi);
    if (!answer.ok) {
      if (isFinal(answer.problem)) return this.end(answer.problem);
      return this.view.retry(answer.problem, () => void this.checkLink(link));
    }
    this.remember(link, answer.value);
    if (answer.value.state === 'locked') return this.end({ kind: 'locked' });
    if (answer.value.state === 'used') return this.end({ kind: 'used' });
    this.askCode(link);
  }

  private remember(link: DeliveryLink, view: LinkView): void {
    this.view.speak(view.language);
    this.keep({ link, view: { reference: view.reference, language: view.language, expiresAt: view.expiresAt }, session: this.saved?.session ?? null });
  }

  private askCode(link: DeliveryLink): void {
    const facts = this.facts();
    if (!facts) return;
    const step = this.view.codeStep(facts, (typed) => {
      const code = normalisedCode(typed);
      if (!isWholeCode(code)) return step.fieldProblem({ kind: 'malformed_code' });
      step.busy(true);
      void this.sendCode(link, code).then((problem) => {
        step.busy(false);
        if (!problem) return;
        if (problem.kind === 'wrong_code' || problem.kind === 'malformed_code') step.fieldProblem(problem);
        else if (isFinal(problem)) this.end(problem);
        else step.formProblem(problem);
      });
    });
  }

  /** Sends the code; undefined when it opened the files (shown), else the problem to tell. */
  private async sendCode(link: DeliveryLink, code: string): Promise<PortalProblem | undefined> {
    const answer = await sendCode(link, code, fetchApi);
    if (answer.ok) {
      this.keep({ link, view: this.saved?.view ?? null, session: answer.value });
      this.showFiles(answer.value);
      return undefined;
    }
    if (answer.problem.kind !== 'wrong_code') return answer.problem;
    // The API says only that the code was wrong: the link says how many tries are left, or that it is locked now.
    const now = await readLink(link, fetchApi);
    if (!now.ok) return answer.problem;
    this.remember(link, now.value);
    if (now.value.state === 'locked') return { kind: 'locked' };
    return { kind: 'wrong_code', attemptsLeft: now.value.attemptsLeft };
  }

  private showFiles(session: SavedSession): void {
    this.view.filesStep(this.facts(), session.artifacts, (artifact, row) => void this.download(session, artifact, row));
  }

  private async download(session: SavedSession, artifact: PortalArtifact, row: FileRow): Promise<void> {
    const linkId = this.saved?.link.linkId;
    if (!linkId) return;
    row.started();
    const answer = await openDownload(linkId, session.session, artifact.artifactId, fetchApi);
    if (!answer.ok) {
      if (answer.problem.kind === 'session_ended') {
        if (this.saved) this.keep({ ...this.saved, session: null });
        return this.end(answer.problem);
      }
      return row.failed(answer.problem);
    }
    const total = contentLengthOf(answer.value.headers.get('content-length'));
    row.progressed(0, total);
    let chunks: Uint8Array[];
    try {
      chunks = answer.value.body ? await readWithProgress(answer.value.body, (received) => row.progressed(received, total)) : [new Uint8Array(await answer.value.arrayBuffer())];
    } catch {
      return row.failed({ kind: 'network' });
    }
    saveFile(chunks, artifact.filename);
    row.saved();
  }
}

function sameLink(a: DeliveryLink, b: DeliveryLink): boolean {
  return a.linkId === b.linkId && a.credential === b.credential;
}

/**
 * Hands the bytes to the browser to save under the file's name: an object URL clicked as a download link. The type is
 * plain bytes so that no browser opens the file in the page's place; the name's extension tells the device what it is.
 */
function saveFile(chunks: Uint8Array[], filename: string): void {
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: 'application/octet-stream' }));
  const link = el('a', { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

const content = document.getElementById('content');
const heading = document.getElementById('heading');
const status = document.getElementById('status');
if (content && heading && status) new Portal(new PortalView(content, heading, status, localeFromBrowser(navigator.languages))).start();
