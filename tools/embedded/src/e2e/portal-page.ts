import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { newPage, type NewPageOptions, type OpenedPage } from '@dsar/platform/testing';
import { SHOWN_WITHIN_MS, shown } from './console-kit';

/**
 * The person's download page (`/portal/`, docs/delivery.md) in a browser, by what the person does: open the link from
 * the email, enter the code from the second, wait for the files, download one, read what the page says went wrong.
 * The page speaks the link's language, so the helper finds its parts by their structure (ids, roles), not their words.
 */
export class PortalPage {
  private readonly urls: string[] = [];

  private constructor(readonly opened: OpenedPage) {
    opened.page.on('request', (request) => this.urls.push(request.url()));
  }

  /**
   * Opens `url` (a link from the email, `<gateway>/portal/#<linkId>.<credential>`, or any address of the page) in a
   * browser context of its own; `locale` is the browser's language (`de-DE`), `viewport` a phone or a desktop.
   */
  static async open(browser: Browser, url: string, options: NewPageOptions = {}): Promise<PortalPage> {
    const portal = new PortalPage(await newPage(browser, options));
    await portal.page.goto(url);
    return portal;
  }

  get page(): Page {
    return this.opened.page;
  }

  /** Every URL the page asked for, in order (its files and its API calls). */
  requestUrls(): string[] {
    return [...this.urls];
  }

  /** The page's language, as `<html lang>` says it. */
  language(): Promise<string | null> {
    return this.page.locator('html').getAttribute('lang');
  }

  get codeField(): Locator {
    return this.page.locator('#code');
  }

  /** Types `code` (as a person would: `1234 5678` is fine) into the code field and sends it. */
  async enterCode(code: string): Promise<void> {
    await shown(this.codeField);
    await this.codeField.fill(code);
    await this.page.locator('form button[type="submit"]').click();
  }

  /** Waits for the list of files; their names as shown (a file's title, else its file name), in order. */
  async files(): Promise<string[]> {
    await shown(this.page.locator('ul.files > li'));
    return (await this.page.locator('ul.files .file-name').allTextContents()).map((name) => name.trim());
  }

  /**
   * Clicks the download button of the file shown as `name`, waits for the browser's download, and answers the file
   * name the page gave it and the bytes the browser saved.
   */
  async download(name: string): Promise<{ filename: string; bytes: Buffer }> {
    const row = this.page.locator('ul.files > li').filter({ has: this.page.locator('.file-name').getByText(name, { exact: true }) });
    const [download] = await Promise.all([this.page.waitForEvent('download', { timeout: SHOWN_WITHIN_MS }), row.getByRole('button').click()]);
    const path = await download.path();
    await shown(row.locator('.done'));
    return { filename: download.suggestedFilename(), bytes: await readFile(path) };
  }

  /**
   * Waits until the page shows a problem (the page's own, the code field's, or a file's) and answers its text, title
   * and detail with white space collapsed; the latest one when several are shown.
   */
  async problemText(): Promise<string> {
    const problem = this.page.locator('.problem, #code-error:not([hidden])');
    await shown(problem);
    return ((await problem.last().innerText()) ?? '').replace(/\s+/g, ' ').trim();
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}
