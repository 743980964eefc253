import type { RequestDetail, RequestorIdentityField } from '@dsar/contracts';
import { ACCOUNT_ID_EVIDENCE_TYPE } from './identities-of';
import { maskAccount, maskEmail, maskName, maskPhone } from './identity-mask';
import { normaliseEmail, normalisePhone } from './identity-normalisation';

type Requestor = RequestDetail['requestor'];

/** The requestor of a request whose intake named none (docs/intake.md): the data subject. */
export const DEFAULT_REQUESTOR: Requestor = { type: 'subject' };

interface Evidence {
  type: string;
  reference?: string;
}

/** What of a request names its requestor: a request row and its detail both have these fields. */
export interface RequestorSource {
  /** Reads a contact written as a national phone number, in the jurisdiction's country. */
  jurisdiction: string;
  requestor?: Requestor | null;
  intakeSource: { contact?: string; sourceEvidence?: readonly Evidence[] };
  authority?: { evidenceArtifacts: readonly Evidence[] } | null;
}

/** The requestor's identities in clear, as a reveal answers them, and which of them the request has. */
export interface RequestorIdentities {
  requestor: Requestor;
  contact: string | null;
  accountIds: string[];
  fields: RequestorIdentityField[];
}

/** The requestor block of a request: the one intake recorded, else the data subject. */
export function requestorOf(source: Pick<RequestorSource, 'requestor'>): Requestor {
  return source.requestor ?? { ...DEFAULT_REQUESTOR };
}

const isAccountEvidence = (e: Evidence): e is Evidence & { reference: string } => e.type === ACCOUNT_ID_EVIDENCE_TYPE && Boolean(e.reference);

/** The references of `account_id` evidence, at intake then with the authority, each once, as written. */
function accountIdsOf(source: RequestorSource): string[] {
  const evidence = [...(source.intakeSource.sourceEvidence ?? []), ...(source.authority?.evidenceArtifacts ?? [])];
  return [...new Set(evidence.filter(isAccountEvidence).map((e) => e.reference))];
}

/**
 * Every identity of the requestor that the masked detail hides (docs/lifecycle.md#the-requestor-masked-and-revealed):
 * the requestor's name, email and phone, the intake contact, and the account ids of `account_id` evidence.
 */
export function requestorIdentitiesOf(source: RequestorSource): RequestorIdentities {
  const requestor = requestorOf(source);
  const contact = source.intakeSource.contact ?? null;
  const accountIds = accountIdsOf(source);
  const present: Record<RequestorIdentityField, boolean> = {
    name: Boolean(requestor.name),
    email: Boolean(requestor.email),
    phone: Boolean(requestor.phone),
    contact: contact !== null,
    account_id: accountIds.length > 0,
  };
  const fields = (Object.keys(present) as RequestorIdentityField[]).filter((f) => present[f]);
  return { requestor, contact, accountIds, fields };
}

/**
 * The intake contact masked by the rule of what it is, read as the identity index reads it: an email address, else a
 * phone number (national numbers in the jurisdiction's country), else any other handle (a chat user, a postal
 * address) with two characters at each end.
 */
export function maskContact(contact: string, jurisdiction: string): string {
  if (normaliseEmail(contact) !== null) return maskEmail(contact.trim());
  if (normalisePhone(contact, jurisdiction) !== null) return maskPhone(contact);
  return maskAccount(contact);
}

const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;
const isWordCharacter = (c: string | undefined) => c !== undefined && WORD_CHARACTER.test(c);

/**
 * `text` with `clear` replaced by `masked` wherever it stands as written and whole: not inside a longer word, so a
 * short name does not mask part of another word. One pass of `indexOf` from left to right.
 */
function maskedWhole(text: string, clear: string, masked: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf(clear); at !== -1; at = text.indexOf(clear, at + 1)) {
    const end = at + clear.length;
    if (at < copied || isWordCharacter(text[at - 1]) || isWordCharacter(text[end])) continue;
    out += text.slice(copied, at) + masked;
    copied = end;
  }
  return out + text.slice(copied);
}

/**
 * The detail as `?requestor=masked` answers it: every identity of the requestor masked in its place
 * (docs/lifecycle.md#the-requestor-masked-and-revealed), and masked too where the intake text repeats it, whole and
 * as written (the longest first: an address that holds a name is masked whole). Everything else as it is.
 */
export function maskedDetail(detail: RequestDetail): RequestDetail {
  const { requestor, contact, accountIds } = requestorIdentitiesOf(detail);
  const masked: Requestor = {
    ...requestor,
    ...(requestor.name ? { name: maskName(requestor.name) } : {}),
    ...(requestor.email ? { email: maskEmail(requestor.email) } : {}),
    ...(requestor.phone ? { phone: maskPhone(requestor.phone) } : {}),
  };
  const maskedContact = contact === null ? null : maskContact(contact, detail.jurisdiction);
  const clearAndMasked: Array<[clear: string | null | undefined, masked: string | null | undefined]> = [
    [requestor.name, masked.name],
    [requestor.email, masked.email],
    [requestor.phone, masked.phone],
    [contact, maskedContact],
    ...accountIds.map((id): [string, string] => [id, maskAccount(id)]),
  ];
  const replacements = clearAndMasked.flatMap(([clear, hidden]) => (clear?.trim() && hidden ? [[clear.trim(), hidden] as const] : [])).sort(([a], [b]) => b.length - a.length);
  const rawText = replacements.reduce((text, [clear, hidden]) => maskedWhole(text, clear, hidden), detail.intakeSource.rawText);
  const maskEvidence = <T extends Evidence>(e: T): T => (isAccountEvidence(e) ? { ...e, reference: maskAccount(e.reference) } : e);
  return {
    ...detail,
    requestor: masked,
    intakeSource: {
      ...detail.intakeSource,
      rawText,
      ...(maskedContact !== null ? { contact: maskedContact } : {}),
      ...(detail.intakeSource.sourceEvidence ? { sourceEvidence: detail.intakeSource.sourceEvidence.map(maskEvidence) } : {}),
    },
    authority: detail.authority ? { ...detail.authority, evidenceArtifacts: detail.authority.evidenceArtifacts.map(maskEvidence) } : null,
  };
}
