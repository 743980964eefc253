import type { PortalLinkState } from '@dsar/contracts';
import type { DeliveryLink } from './fragment';
import { type PortalLocale, portalLocaleOf } from './language';
import { type PortalProblem, type PortalStep, problemOfAnswer } from './problems';
import { type SavedSession, sessionOf } from './saved';

/**
 * The page's three calls to the public API (libs/contracts/src/http/portal.ts): read the link, send its code, download
 * a file. The link's credential and the session go in headers, never in a URL; no cookie is sent or kept.
 */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: PortalProblem };

const DELIVERIES = '/api/v1/portal/deliveries';
/** DELIVERY_LINK_HEADER and PORTAL_SESSION_HEADER of the contracts, whose code the page does not bundle. */
const LINK_HEADER = 'x-delivery-link';
const SESSION_HEADER = 'x-portal-session';
const LINK_STATES: readonly PortalLinkState[] = ['code_required', 'locked', 'used'];

/** Every call: no cookie, no referrer, nothing from the HTTP cache, and no redirect followed with the secrets. */
const CALL: RequestInit = { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', redirect: 'error' };

/** What the page uses of a link answer (PortalDelivery); a language the page has no texts in reads as English. */
export interface LinkView {
  reference: string;
  language: PortalLocale;
  expiresAt: string;
  state: PortalLinkState;
  attemptsLeft: number;
}

async function call(fetchFn: Fetch, step: PortalStep, url: string, init: RequestInit): Promise<Outcome<Response>> {
  let res: Response;
  try {
    res = await fetchFn(url, { ...CALL, ...init });
  } catch {
    return { ok: false, problem: { kind: 'network' } };
  }
  if (res.ok) return { ok: true, value: res };
  // The problem's body is for operators; the page reads the status (and Retry-After) only.
  await res.body?.cancel().catch(() => undefined);
  return { ok: false, problem: problemOfAnswer(step, res.status, res.headers.get('retry-after'), Date.now()) };
}

async function jsonOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

/** A link answer (PortalDelivery), checked; null when it is not one. */
export function linkViewOf(value: unknown): LinkView | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const language = portalLocaleOf(typeof v.language === 'string' ? v.language : null) ?? 'en';
  const state = LINK_STATES.find((s) => s === v.state);
  if (typeof v.reference !== 'string' || typeof v.expiresAt !== 'string' || !state) return null;
  if (typeof v.attemptsLeft !== 'number' || !Number.isInteger(v.attemptsLeft) || v.attemptsLeft < 0) return null;
  return { reference: v.reference, language, expiresAt: v.expiresAt, state, attemptsLeft: v.attemptsLeft };
}

const linkPath = (linkId: string) => `${DELIVERIES}/${encodeURIComponent(linkId)}`;

/** `GET /portal/deliveries/:linkId`: the reference, the language, the expiry and what the link can do. */
export async function readLink(link: DeliveryLink, fetchFn: Fetch): Promise<Outcome<LinkView>> {
  const answer = await call(fetchFn, 'link', linkPath(link.linkId), { method: 'GET', headers: { accept: 'application/json', [LINK_HEADER]: link.credential } });
  if (!answer.ok) return answer;
  const view = linkViewOf(await jsonOf(answer.value));
  return view ? { ok: true, value: view } : { ok: false, problem: { kind: 'unavailable' } };
}

/** `POST /portal/deliveries/:linkId/code`: the session and the files, once the code is right. */
export async function sendCode(link: DeliveryLink, code: string, fetchFn: Fetch): Promise<Outcome<SavedSession>> {
  const answer = await call(fetchFn, 'code', `${linkPath(link.linkId)}/code`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', [LINK_HEADER]: link.credential },
    body: JSON.stringify({ code }),
  });
  if (!answer.ok) return answer;
  const session = sessionOf(await jsonOf(answer.value));
  return session ? { ok: true, value: session } : { ok: false, problem: { kind: 'unavailable' } };
}

/** `GET /portal/deliveries/:linkId/artifacts/:artifactId`: the answer, whose body the page reads itself. */
export function openDownload(linkId: string, session: string, artifactId: string, fetchFn: Fetch): Promise<Outcome<Response>> {
  return call(fetchFn, 'download', `${linkPath(linkId)}/artifacts/${encodeURIComponent(artifactId)}`, { method: 'GET', headers: { [SESSION_HEADER]: session } });
}
