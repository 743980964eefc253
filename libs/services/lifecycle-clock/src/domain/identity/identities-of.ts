import { IDENTITY_KINDS, type IdentityKind } from '@dsar/contracts';
import { normaliseAccount, normaliseEmail, normalisePhone } from './identity-normalisation';

/** The evidence type whose reference is an account id of the person in a host system. */
export const ACCOUNT_ID_EVIDENCE_TYPE = 'account_id';

/** An identity of a request in its normalised form. */
export interface RequestIdentity {
  kind: IdentityKind;
  value: string;
}

interface EvidenceOfIdentity {
  type: string;
  reference?: string;
}

/** What of a request names the person (a request row has these fields). */
export interface IdentitySource {
  /** Reads a phone number written in national form, in the jurisdiction's country. */
  jurisdiction: string;
  requestor?: { email?: string; phone?: string } | null;
  intakeSource: { contact?: string; sourceEvidence?: readonly EvidenceOfIdentity[] };
  authority?: { evidenceArtifacts: readonly EvidenceOfIdentity[] } | null;
}

/**
 * The identities a request carries, as the index keeps them (docs/identity.md): the requestor's email and phone; the
 * intake contact as an email when it is one, else as a phone when it is one; the reference of every `account_id`
 * evidence, given at intake or as authority evidence. Normalised, each once, sorted by kind (in IDENTITY_KINDS'
 * order) then value; a text that is not an identity of its kind is left out.
 */
export function identitiesOf(request: IdentitySource): RequestIdentity[] {
  const found = new Map<string, RequestIdentity>();
  const add = (kind: IdentityKind, value: string | null) => {
    if (value !== null) found.set(`${kind}\u0000${value}`, { kind, value });
  };
  const { jurisdiction, requestor, intakeSource, authority } = request;
  if (requestor?.email) add('email', normaliseEmail(requestor.email));
  if (requestor?.phone) add('phone', normalisePhone(requestor.phone, jurisdiction));
  if (intakeSource.contact) {
    const email = normaliseEmail(intakeSource.contact);
    if (email !== null) add('email', email);
    else add('phone', normalisePhone(intakeSource.contact, jurisdiction));
  }
  for (const evidence of [...(intakeSource.sourceEvidence ?? []), ...(authority?.evidenceArtifacts ?? [])]) {
    if (evidence.type === ACCOUNT_ID_EVIDENCE_TYPE && evidence.reference) add('account', normaliseAccount(evidence.reference));
  }
  return [...found.values()].sort((a, b) => IDENTITY_KINDS.indexOf(a.kind) - IDENTITY_KINDS.indexOf(b.kind) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
