import type {
  ClosureReason,
  IdentityKind,
  LifecycleAction,
  PauseCommand,
  QueuePage,
  RefusalReason,
  RequestStatus,
  RequestType,
  VerificationLevel,
  VerificationMethod,
  VerificationRejectionReason,
} from '@dsar/contracts';

/*
 * The words the console shows for the API's codes. Each table is a Record over the contract's union: a value added
 * to the contracts breaks the console's type-check until it has its words here (the console cannot import the
 * contracts' runtime lists, only their types).
 */

export type IntakeChannel = QueuePage['items'][number]['channel'];
export type PauseReason = PauseCommand['reason'];

export const STATUS_LABELS: Readonly<Record<RequestStatus, string>> = {
  received: 'Received',
  in_progress: 'In progress',
  clarification_pending: 'Waiting for clarification',
  verification_pending: 'Waiting for verification',
  fulfilled: 'Fulfilled',
  refused: 'Refused',
  closed: 'Closed',
};

/** The statuses in which the clock still runs for the requester. */
export const OPEN_STATUSES: readonly RequestStatus[] = ['received', 'in_progress', 'clarification_pending', 'verification_pending'];

export const REQUEST_TYPE_LABELS: Readonly<Record<RequestType, string>> = {
  access: 'Access',
  deletion: 'Deletion',
  rectification: 'Rectification',
  portability: 'Portability',
  restriction: 'Restriction',
  objection: 'Objection',
  opt_out: 'Opt-out',
};

export const CHANNEL_LABELS: Readonly<Record<IntakeChannel, string>> = {
  web_form: 'Web form',
  email: 'Email',
  chat: 'Chat',
  phone: 'Phone',
  postal_mail: 'Postal mail',
  in_person: 'In person',
  api: 'API',
  other: 'Other',
};

export const IDENTITY_KIND_LABELS: Readonly<Record<IdentityKind, string>> = {
  email: 'Email address',
  phone: 'Phone number',
  account: 'Account id',
};

/** Every workflow action in words: the names of the action buttons. */
export const ACTION_LABELS: Readonly<Record<LifecycleAction, string>> = {
  acknowledge: 'Acknowledge',
  request_clarification: 'Request clarification',
  receive_clarification: 'Record clarification',
  request_verification: 'Request verification',
  approve_verification: 'Approve verification',
  reject_verification: 'Reject verification',
  fulfil: 'Fulfil',
  refuse: 'Refuse',
  close: 'Close',
  replace_requestor: 'Replace requestor',
  correct_request: 'Correct request',
  resolve_duplicate: 'Resolve duplicate',
  submit_authority: 'Submit authority',
  approve_authority: 'Approve authority',
  reject_authority: 'Reject authority',
  extend_deadline: 'Extend deadline',
  pause_clock: 'Pause clock',
  resume_clock: 'Resume clock',
  appeal: 'Appeal',
  decide_appeal: 'Decide appeal',
};

export const REFUSAL_REASON_LABELS: Readonly<Record<RefusalReason, string>> = {
  manifestly_unfounded: 'Manifestly unfounded',
  excessive: 'Excessive',
  identity_not_verified: 'Identity not verified',
  no_data_held: 'No data held',
  exemption_applies: 'An exemption applies',
  outside_jurisdiction: 'Outside the jurisdiction',
  duplicate: 'Duplicate',
  other: 'Other',
};

export const CLOSURE_REASON_LABELS: Readonly<Record<ClosureReason, string>> = {
  withdrawn: 'Withdrawn',
  completed: 'Completed',
  duplicate: 'Duplicate',
  requester_unresponsive: 'Requester unresponsive',
  transferred: 'Transferred',
  other: 'Other',
};

export const PAUSE_REASON_LABELS: Readonly<Record<PauseReason, string>> = {
  verification: 'Identity verification',
  clarification: 'Clarification',
  fee: 'Fee',
};

export const VERIFICATION_LEVEL_LABELS: Readonly<Record<VerificationLevel, string>> = {
  reasonable: 'Reasonable',
  enhanced: 'Enhanced',
};

export const VERIFICATION_METHOD_LABELS: Readonly<Record<VerificationMethod, string>> = {
  existing_auth: 'Existing login session',
  manual: 'Manual comparison',
  document: 'Identity document',
  account_match: 'Account match (code sent)',
  signed_declaration: 'Signed declaration',
};

export const VERIFICATION_REJECTION_LABELS: Readonly<Record<VerificationRejectionReason, string>> = {
  insufficient_evidence: 'Insufficient evidence',
  evidence_mismatch: 'Evidence does not match',
  suspected_fraud: 'Suspected fraud',
  no_response: 'No response',
  other: 'Other',
};

/** The keys of a label table, in its order: the options of a select. */
export function keysOf<K extends string>(labels: Readonly<Record<K, string>>): K[] {
  return Object.keys(labels) as K[];
}

/** A code in words when the table knows it, else the code with its underscores as spaces (a value newer than the console). */
export function labelOf(labels: Readonly<Record<string, string>>, code: string): string {
  return Object.hasOwn(labels, code) ? labels[code] : code.replace(/_/g, ' ');
}
