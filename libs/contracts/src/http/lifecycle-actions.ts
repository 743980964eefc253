/**
 * Everything that can be done to a request, by name. A 409
 * `LIFECYCLE_TRANSITION_DISALLOWED` lists the ones its status allows.
 */
export const LIFECYCLE_ACTIONS = [
  'acknowledge',
  'request_clarification',
  'receive_clarification',
  'request_verification',
  'approve_verification',
  'reject_verification',
  'fulfil',
  'refuse',
  'close',
  'replace_requestor',
  'correct_request',
  'resolve_duplicate',
  'submit_authority',
  'approve_authority',
  'reject_authority',
  'extend_deadline',
  'pause_clock',
  'resume_clock',
  'appeal',
  'decide_appeal',
] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];
