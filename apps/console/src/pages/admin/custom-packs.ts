import type { CustomPackActivation, CustomPackApproved, CustomPackDeactivation, CustomPackRegistration, PolicyPackSummary, ReleaseType, SessionView } from '@dsar/contracts';
import type { Problem } from '../../problem';
import { MANAGE_POLICIES } from './proposals';

/*
 * Custom policy packs in the console (docs/policy-packs/README.md#custom-packs): the registration form's values and
 * the body they make, the version a page shows (it is in the address, so that a registrant can send it to the admin
 * who approves), what the page learnt of each version, and which buttons a version offers to a session. Pure: the
 * page draws it. The API decides every step again (four eyes included) and the page shows its refusal.
 */

export const RELEASE_TYPE_LABELS: Readonly<Record<ReleaseType, string>> = {
  major: 'Major: a request would get another deadline',
  minor: 'Minor: wider coverage, no deadline moves',
  patch: 'Patch: names, citations and notes',
};

/** The contracts' rules (the console may import types only); the API checks them again. */
const PACK_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const SEMVER = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
const JURISDICTION = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/;
/** The longest changelog and compatibility notes the API takes. */
export const METADATA_MAX_LENGTH = 4000;
/** The longest document the text area takes: a pack is a few kilobytes, and the gateway limits a body anyway. */
export const DOCUMENT_MAX_LENGTH = 200_000;

/** The registration form's values as typed. Name, version and jurisdiction left empty come from the document. */
export interface RegistrationValues {
  name: string;
  version: string;
  jurisdiction: string;
  releaseType: ReleaseType;
  changelog: string;
  compatibilityNotes: string;
  /** The pack document, as JSON text. */
  document: string;
}

export type RegistrationErrors = Partial<Record<keyof RegistrationValues, string>>;

/** The body of a registration; the document goes as parsed, for the API to check against the pack schema. */
export type RegistrationBody = Omit<CustomPackRegistration, 'pack'> & { pack: Record<string, unknown> };

export function emptyRegistration(): RegistrationValues {
  return { name: '', version: '', jurisdiction: '', releaseType: 'major', changelog: '', compatibilityNotes: '', document: '' };
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document's own value of a field the form may leave empty: `packId`, `version`, the first jurisdiction's code. */
function documentValue(pack: Record<string, unknown>, field: 'name' | 'version' | 'jurisdiction'): string {
  if (field === 'name') return typeof pack.packId === 'string' ? pack.packId : '';
  if (field === 'version') return typeof pack.version === 'string' ? pack.version : '';
  const first = Array.isArray(pack.jurisdictions) ? (pack.jurisdictions[0] as unknown) : undefined;
  return isRecord(first) && typeof first.code === 'string' ? first.code : '';
}

/**
 * The registration the form's values make, or what is wrong with them that the browser can tell: the text area must
 * hold a JSON object (parsed here, so that a typing slip never reaches the API), and the name, version and
 * jurisdiction must have the API's form. Whether the document is a valid pack that protects as much as the law is the
 * API's to say.
 */
export function registrationOf(values: RegistrationValues): { ok: true; body: RegistrationBody } | { ok: false; errors: RegistrationErrors } {
  const errors: RegistrationErrors = {};
  let pack: Record<string, unknown> | null = null;
  if (values.document.trim() === '') {
    errors.document = 'Paste the pack document: a JSON object.';
  } else {
    const parsed = parseJson(values.document);
    if (!parsed.ok) errors.document = `This is not JSON: ${parsed.message}. Check the quotes, commas and brackets near that place.`;
    else if (!isRecord(parsed.value)) errors.document = `The pack document must be a JSON object ({ … }), not ${kindOf(parsed.value)}.`;
    else pack = parsed.value;
  }
  const given = (field: 'name' | 'version' | 'jurisdiction') => values[field].trim() || (pack ? documentValue(pack, field) : '');
  const name = given('name');
  const version = given('version');
  const jurisdiction = given('jurisdiction').toUpperCase();
  // Without a document, an empty field is the document's problem, already said.
  if (pack || values.name.trim() !== '') {
    if (name === '') errors.name = 'Give the pack id, or a packId in the document.';
    else if (!PACK_ID.test(name)) errors.name = 'Lower-case letters, digits and dashes, such as acme-uk.';
  }
  if (pack || values.version.trim() !== '') {
    if (version === '') errors.version = 'Give the version, or a version in the document.';
    else if (!SEMVER.test(version)) errors.version = 'A version MAJOR.MINOR.PATCH, such as 1.2.0.';
  }
  if (pack || values.jurisdiction.trim() !== '') {
    if (jurisdiction === '') errors.jurisdiction = 'Give the jurisdiction, or jurisdictions in the document.';
    else if (!JURISDICTION.test(jurisdiction)) errors.jurisdiction = 'A jurisdiction code such as GB, DE or US-CA.';
  }
  if (values.changelog.trim() === '') errors.changelog = 'Say what this version changes.';
  if (values.compatibilityNotes.trim() === '') errors.compatibilityNotes = 'Say what users of the previous version should know (or "None").';
  if (!pack || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      jurisdiction,
      name,
      version,
      pack,
      metadata: { changelog: values.changelog.trim(), compatibilityNotes: values.compatibilityNotes.trim(), releaseType: values.releaseType },
    },
  };
}

/** A registered version: the API names one by its name, jurisdiction and version. */
export interface PackVersion {
  name: string;
  jurisdiction: string;
  version: string;
}

export function sameVersion(a: PackVersion, b: PackVersion): boolean {
  return a.name === b.name && a.jurisdiction === b.jurisdiction && a.version === b.version;
}

export function versionWords(v: PackVersion): string {
  return `${v.name} ${v.version} for ${v.jurisdiction}`;
}

/** The version a page shows, from its address (`?pack=&jurisdiction=&version=`); null when there is none or it is malformed. */
export function versionFromSearch(search: string): PackVersion | null {
  const params = new URLSearchParams(search);
  const name = params.get('pack') ?? '';
  const jurisdiction = (params.get('jurisdiction') ?? '').toUpperCase();
  const version = params.get('version') ?? '';
  return PACK_ID.test(name) && JURISDICTION.test(jurisdiction) && SEMVER.test(version) ? { name, jurisdiction, version } : null;
}

export function searchOfVersion(v: PackVersion): string {
  return `?${new URLSearchParams({ pack: v.name, jurisdiction: v.jurisdiction, version: v.version }).toString()}`;
}

/** What the version form typed, as a version to open, or why not. */
export function versionOfForm(values: PackVersion): { ok: true; version: PackVersion } | { ok: false; errors: Partial<Record<keyof PackVersion, string>> } {
  const name = values.name.trim();
  const jurisdiction = values.jurisdiction.trim().toUpperCase();
  const version = values.version.trim();
  const errors: Partial<Record<keyof PackVersion, string>> = {};
  if (!PACK_ID.test(name)) errors.name = 'Lower-case letters, digits and dashes, such as acme-uk.';
  if (!JURISDICTION.test(jurisdiction)) errors.jurisdiction = 'A jurisdiction code such as GB, DE or US-CA.';
  if (!SEMVER.test(version)) errors.version = 'A version MAJOR.MINOR.PATCH, such as 1.2.0.';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, version: { name, jurisdiction, version } };
}

/**
 * What the page learnt of a version from the API's answers. No route reads a version's registrant or approval (only
 * the active versions are listed, by `GET /policies`), so each answer adds what it says and nothing else.
 */
export interface VersionFacts {
  /** Who registered it: this page's registration, an approval's answer, or the registrant's own approval refused. */
  registeredBy?: string;
  approvedBy?: string;
  approvedAt?: string;
  /** An activation was refused because nobody but the registrant approved it (four eyes). */
  notApproved?: boolean;
}

/** The refusal of an approval by the version's registrant (four eyes). */
export const OWN_APPROVAL_CODE = 'SVC-BE-1522';
/** The refusal of an activation of a version nobody but its registrant approved. */
export const NOT_APPROVED_CODE = 'SVC-BE-1521';

export type VersionAnswer =
  { kind: 'registered'; by: string } | { kind: 'approved'; answer: Pick<CustomPackApproved, 'registeredBy' | 'approvedBy' | 'approvedAt'> } | { kind: 'refused'; problem: Problem; principal: string };

/** The facts of a version after an answer of the API about it. */
export function learnt(facts: VersionFacts, answer: VersionAnswer): VersionFacts {
  if (answer.kind === 'registered') return { registeredBy: answer.by };
  if (answer.kind === 'approved') return { registeredBy: answer.answer.registeredBy, approvedBy: answer.answer.approvedBy, approvedAt: answer.answer.approvedAt };
  // The API refused the caller's approval as its registrant's: the caller registered it.
  if (answer.problem.code === OWN_APPROVAL_CODE) return { ...facts, registeredBy: answer.principal };
  if (answer.problem.code === NOT_APPROVED_CODE && !facts.approvedBy) return { ...facts, notApproved: true };
  return facts;
}

/** The scope an activation of the session changes: its workspace, or (null) the whole tenant. */
export function ownScopeOf(session: Pick<SessionView, 'workspaceId'>): string | null {
  return session.workspaceId;
}

/** The workspaces (null: the whole tenant) a version is active for, among the packs the caller's new requests use. */
export function activeScopes(packs: readonly PolicyPackSummary[], v: PackVersion): (string | null)[] {
  return packs
    .filter((p) => p.source === 'custom' && p.activatedFor && p.packId === v.name && p.version === v.version && p.activatedFor.jurisdiction === v.jurisdiction)
    .map((p) => p.activatedFor?.workspaceId ?? null);
}

export function scopeWords(workspaceId: string | null): string {
  return workspaceId ? `workspace ${workspaceId}` : 'the whole tenant';
}

/** A version's state in words, from what the page knows of it. */
export function statusWords(facts: VersionFacts, scopes: readonly (string | null)[]): string {
  if (scopes.length > 0) return `Active for ${scopes.map(scopeWords).join(' and ')}`;
  if (facts.approvedBy) return `Approved by ${facts.approvedBy}`;
  if (facts.registeredBy) return `Waiting for approval (registered by ${facts.registeredBy})`;
  if (facts.notApproved) return 'Waiting for approval';
  return 'Registered';
}

export interface VersionActions {
  approve: boolean;
  activate: boolean;
}

/**
 * The buttons a version offers once its document was read (the approver reads what they approve): approving to an
 * admin not confined to a workspace (the route is tenant-wide) who is not known to have registered it and while no
 * approval is known; activating for the session's own scope, where it is not active yet. Whether four eyes holds is
 * the tenant's setting, which the console cannot read: the API refuses, and the page shows it.
 */
export function versionActions(
  session: Pick<SessionView, 'principal' | 'workspaceId' | 'permissions'>,
  facts: VersionFacts,
  scopes: readonly (string | null)[],
  documentRead: boolean,
): VersionActions {
  if (!documentRead || !session.permissions.includes(MANAGE_POLICIES)) return { approve: false, activate: false };
  return {
    approve: session.workspaceId === null && !facts.approvedBy && facts.registeredBy !== session.principal,
    activate: !scopes.includes(ownScopeOf(session)),
  };
}

/** Whether the session may register versions: the catalog is tenant-wide, so not from a session confined to a workspace. */
export function mayRegister(session: Pick<SessionView, 'workspaceId' | 'permissions'>): boolean {
  return session.permissions.includes(MANAGE_POLICIES) && session.workspaceId === null;
}

/** Whether the session may end an activation: one of its own scope. */
export function mayDeactivate(session: Pick<SessionView, 'workspaceId' | 'permissions'>, workspaceId: string | null): boolean {
  return session.permissions.includes(MANAGE_POLICIES) && workspaceId === ownScopeOf(session);
}

export function approvalBody(v: PackVersion): PackVersion {
  return { name: v.name, jurisdiction: v.jurisdiction, version: v.version };
}

export function activationBody(session: Pick<SessionView, 'tenantId' | 'workspaceId'>, v: PackVersion): CustomPackActivation {
  return { tenantId: session.tenantId, jurisdiction: v.jurisdiction, version: v.version, name: v.name, ...(session.workspaceId ? { workspaceId: session.workspaceId } : {}) };
}

export function deactivationBody(session: Pick<SessionView, 'tenantId' | 'workspaceId'>, jurisdiction: string): CustomPackDeactivation {
  return { tenantId: session.tenantId, jurisdiction, ...(session.workspaceId ? { workspaceId: session.workspaceId } : {}) };
}

/** A row of the custom packs' list: a version active for the caller, or one this page registered or opened. */
export interface CustomPackRow extends PackVersion {
  /** The pack's own name for people, where the page has read it (an active pack's summary). */
  title: string | null;
  scopes: (string | null)[];
  facts: VersionFacts;
}

/**
 * The list: every version active for the caller (`GET /policies`, `source: custom`), then the versions this page
 * registered, opened or acted on, each once, in the order they came.
 */
export function customPackRows(packs: readonly PolicyPackSummary[], known: readonly (PackVersion & { facts: VersionFacts })[]): CustomPackRow[] {
  const rows: CustomPackRow[] = [];
  for (const p of packs) {
    if (p.source !== 'custom' || !p.activatedFor) continue;
    const v = { name: p.packId, jurisdiction: p.activatedFor.jurisdiction, version: p.version };
    const row = rows.find((r) => sameVersion(r, v));
    if (row) row.scopes.push(p.activatedFor.workspaceId);
    else rows.push({ ...v, title: p.name, scopes: [p.activatedFor.workspaceId], facts: {} });
  }
  for (const k of known) {
    const row = rows.find((r) => sameVersion(r, k));
    if (row) row.facts = k.facts;
    else rows.push({ name: k.name, jurisdiction: k.jurisdiction, version: k.version, title: null, scopes: [], facts: k.facts });
  }
  return rows;
}
