import type { PortalArtifact } from '@dsar/contracts';
import { type DeliveryLink, isDeliveryLink } from './fragment';
import { type PortalLocale, portalLocaleOf } from './language';

/**
 * What the page keeps for its tab, in sessionStorage only (gone when the tab closes; never in localStorage, a cookie
 * or the address): the link, what the API said of it, and once the code was right, the session and the files. A
 * reload in the same tab shows the files again without a new code, which the link would refuse (it opens once).
 */
export interface SavedView {
  reference: string;
  language: PortalLocale;
  expiresAt: string;
}

export interface SavedSession {
  session: string;
  sessionExpiresAt: string;
  artifacts: PortalArtifact[];
}

export interface Saved {
  link: DeliveryLink;
  view: SavedView | null;
  session: SavedSession | null;
}

export const SAVED_KEY = 'dsar-portal';

type Record_ = Record<string, unknown>;
const isRecord = (value: unknown): value is Record_ => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
/** The session, like the link's credential: 43 base64url characters. */
const SESSION = /^[A-Za-z0-9_-]{43}$/;

function viewOf(value: unknown): SavedView | null {
  if (!isRecord(value) || !isText(value.reference) || !isText(value.expiresAt)) return null;
  const language = portalLocaleOf(isText(value.language) ? value.language : null);
  return language ? { reference: value.reference, language, expiresAt: value.expiresAt } : null;
}

function artifactOf(value: unknown): PortalArtifact | null {
  if (!isRecord(value)) return null;
  const { artifactId, filename, title, contentType, size, sha256 } = value;
  if (!isText(artifactId) || !isText(filename) || !isText(title) || !isText(contentType) || !isText(sha256)) return null;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) return null;
  return { artifactId, filename, title, contentType, size, sha256 };
}

/** The files of a session answer (or of what was kept), each checked; null when any is not one. */
export function artifactsOf(value: unknown): PortalArtifact[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const artifacts = value.map(artifactOf);
  return artifacts.every((a): a is PortalArtifact => a !== null) ? artifacts : null;
}

/** A session answer (PortalSession of the contracts), checked; null when it is not one. */
export function sessionOf(value: unknown): SavedSession | null {
  if (!isRecord(value) || !isText(value.session) || !SESSION.test(value.session) || !isText(value.sessionExpiresAt)) return null;
  const artifacts = artifactsOf(value.artifacts);
  return artifacts ? { session: value.session, sessionExpiresAt: value.sessionExpiresAt, artifacts } : null;
}

/** What the tab kept, checked field by field; undefined when nothing (or nothing usable) was kept. */
export function readSaved(storage: Pick<Storage, 'getItem'>): Saved | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(SAVED_KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !isRecord(parsed.link) || !isText(parsed.link.linkId) || !isText(parsed.link.credential)) return undefined;
  const link = { linkId: parsed.link.linkId, credential: parsed.link.credential };
  if (!isDeliveryLink(link)) return undefined;
  return { link, view: viewOf(parsed.view), session: sessionOf(parsed.session) };
}

export function writeSaved(storage: Pick<Storage, 'setItem'>, saved: Saved): void {
  storage.setItem(SAVED_KEY, JSON.stringify(saved));
}

export function clearSaved(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(SAVED_KEY);
}
