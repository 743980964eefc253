import type { RequestDetail } from '@dsar/contracts';
import { maskAccount, maskEmail, maskName, maskPhone } from './mask';

/** One thing that identifies the requestor, with its masked form: what the request page lists under "Requestor". */
export interface ShownIdentity {
  label: string;
  value: string;
  masked: string;
}

type IdentitySource = Pick<RequestDetail, 'requestor' | 'intakeSource' | 'authority'>;

/**
 * The requestor's name, email and phone, and the account ids given as `account_id` evidence (at intake or with the
 * authority): the identities the blind index keeps (docs/identity.md), each once.
 */
export function identitiesOf(request: IdentitySource): ShownIdentity[] {
  const shown: ShownIdentity[] = [];
  const { name, email, phone } = request.requestor;
  if (name) shown.push({ label: 'Name', value: name, masked: maskName(name) });
  if (email) shown.push({ label: 'Email', value: email, masked: maskEmail(email) });
  if (phone) shown.push({ label: 'Phone', value: phone, masked: maskPhone(phone) });
  const evidence = [...(request.intakeSource.sourceEvidence ?? []), ...(request.authority?.evidenceArtifacts ?? [])];
  const accounts = new Set(evidence.filter((e) => e.type === 'account_id' && e.reference).map((e) => e.reference as string));
  for (const account of accounts) shown.push({ label: 'Account id', value: account, masked: maskAccount(account) });
  return shown;
}
