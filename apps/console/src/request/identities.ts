import type { RequestDetail, RequestorReveal } from '@dsar/contracts';

/** One thing that identifies the requestor, as the request page lists it under "Requestor". */
export interface ShownIdentity {
  label: string;
  value: string;
}

/**
 * Where the requestor's identities come from: the detail read with `requestor=masked` (each one masked by the API), or
 * the answer of a reveal (each one in clear). The two carry the same identities in the same order.
 */
export type IdentitySource = Pick<RequestorReveal, 'requestor' | 'contact' | 'accountIds'>;

/** The reveal's route for a request (`POST`, with the reason; recorded on the timeline). */
export const revealPath = (requestId: string) => `/requests/${encodeURIComponent(requestId)}/requestor/reveal`;

/** The identities of a detail, in the form of a reveal's answer: the contact, and the account ids of `account_id` evidence (at intake, then with the authority), each once. */
export function identitySourceOfDetail(detail: Pick<RequestDetail, 'requestor' | 'intakeSource' | 'authority'>): IdentitySource {
  const evidence = [...(detail.intakeSource.sourceEvidence ?? []), ...(detail.authority?.evidenceArtifacts ?? [])];
  const accountIds = [...new Set(evidence.filter((e) => e.type === 'account_id' && e.reference).map((e) => e.reference as string))];
  return { requestor: detail.requestor, contact: detail.intakeSource.contact ?? null, accountIds };
}

const sameText = (a: string, b: string | undefined) => b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The requestor's name, email and phone, the intake contact unless it repeats the email or the phone, and the account
 * ids: what the page lists, masked or in clear as the source has them.
 */
export function identitiesOf(source: IdentitySource): ShownIdentity[] {
  const shown: ShownIdentity[] = [];
  const { name, email, phone } = source.requestor;
  if (name) shown.push({ label: 'Name', value: name });
  if (email) shown.push({ label: 'Email', value: email });
  if (phone) shown.push({ label: 'Phone', value: phone });
  const { contact } = source;
  if (contact && !sameText(contact, email) && !sameText(contact, phone)) shown.push({ label: 'Contact', value: contact });
  for (const account of source.accountIds) shown.push({ label: 'Account id', value: account });
  return shown;
}
