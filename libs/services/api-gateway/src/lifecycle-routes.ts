import type { z } from 'zod';
import {
  acknowledgementCommand,
  authorityApproveCommand,
  authorityRejectCommand,
  authoritySubmitCommand,
  clarificationReceiveCommand,
  clarificationRequestCommand,
  clockChangeResult,
  clockExplanation,
  closureCommand,
  type ErrorName,
  extensionCommand,
  lifecycleResult,
  pauseCommand,
  refusalCommand,
  requestorCommand,
  resumeCommand,
} from '@dsar/contracts';
import { CLOCK_CHANGE_ERRORS, LIFECYCLE_ERRORS } from './route-errors';
import type { GatewayRoute, HttpMethod } from './route-types';

/** A workflow command on one request, answered with the spec's lifecycle response. */
function lifecycleRoute(path: string, operationId: string, summary: string, description: string, body: z.ZodType, errors: ErrorName[] = [], method: HttpMethod = 'POST'): GatewayRoute {
  return {
    method,
    path: `/requests/:id${path}`,
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId,
    summary,
    description,
    tag: 'Lifecycle',
    body,
    response: { status: 202, schema: lifecycleResult, description: "The request's status and due time after the step." },
    errors: [...LIFECYCLE_ERRORS, ...errors],
  };
}

/** Public routes of lifecycle-clock's workflow: the request's legal clock (docs/clock.md) and the workflow commands on one request (docs/lifecycle.md). */
export const LIFECYCLE_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/requests/:id/clock/explain',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'explainRequestClock',
    summary: "How the request's deadline was computed",
    description:
      "The base deadline, every pause and extension and what it did, the segments of the clock, the acknowledgement, refusal-notice and extension-notice deadlines, the rule applied, and the computation in words. `finalDueAt` is the request's `dueAt`. Model: docs/clock.md.",
    tag: 'Clock',
    response: { status: 200, schema: clockExplanation, description: 'The clock explanation.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/requests/:id/extensions',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'extendRequestDeadline',
    summary: 'Extend the response deadline',
    description:
      "Extends the deadline as the request's pinned pack allows: inside its notice window, within its maximum, with reasons where it requires them. Without an amount the extension takes what is left of the maximum. Emits `dsar.request.deadline_extended.v1`, from which the requester is told.",
    tag: 'Clock',
    body: extensionCommand,
    bodyOptional: true,
    response: { status: 202, schema: clockChangeResult, description: 'The deadline was extended.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'EXTENSION_NOT_AVAILABLE', 'EXTENSION_EXCEEDS_MAXIMUM', 'EXTENSION_TERMS_INVALID', 'EXTENSION_NOTICE_PERIOD_ELAPSED'],
  },
  {
    method: 'POST',
    path: '/requests/:id/clock/pauses',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'pauseRequestClock',
    summary: 'Pause the legal clock',
    description:
      'Records a pause for identity verification, clarification or a fee that happens outside the workflow endpoints (e.g. a fee asked for by letter). The pack decides what it does: restart, suspend, or nothing (`ignore`). `at` may be in the past, never before the latest clock event.',
    tag: 'Clock',
    body: pauseCommand,
    response: { status: 202, schema: clockChangeResult, description: 'The clock is paused.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'CLOCK_ALREADY_PAUSED', 'CLOCK_EVENT_OUT_OF_ORDER'],
  },
  {
    method: 'POST',
    path: '/requests/:id/clock/resume',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'resumeRequestClock',
    summary: "End the clock's pause",
    description: 'Ends the open pause (e.g. when the identity document or the payment arrived, `at`), and applies its rule to the deadline.',
    tag: 'Clock',
    body: resumeCommand,
    bodyOptional: true,
    response: { status: 202, schema: clockChangeResult, description: 'The clock runs again; `dueAt` is the new deadline.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'CLOCK_NOT_PAUSED', 'CLOCK_EVENT_OUT_OF_ORDER'],
  },
  {
    ...lifecycleRoute(
      '/acknowledgements',
      'acknowledgeRequest',
      'Record that the requester was told of receipt',
      'Once per request, in any open status; a `received` request moves to `in_progress`. Stops the acknowledgement deadline the pack may set (`acknowledgementDueAt`).',
      acknowledgementCommand,
    ),
    bodyOptional: true,
  },
  lifecycleRoute(
    '/clarifications/request',
    'requestClarification',
    'Ask the requester to clarify the request',
    'From `received` or `in_progress` to `clarification_pending`. The clock pauses for clarification and the pack decides what the pause does (docs/clock.md); a clock already paused (e.g. for a fee) stays as it is.',
    clarificationRequestCommand,
    ['CLOCK_EVENT_OUT_OF_ORDER'],
  ),
  {
    ...lifecycleRoute(
      '/clarifications/receive',
      'receiveClarification',
      "Record the requester's clarification",
      'From `clarification_pending` back to `in_progress`; the clock resumes at `receivedAt` (default now).',
      clarificationReceiveCommand,
      ['CLOCK_EVENT_OUT_OF_ORDER'],
    ),
    bodyOptional: true,
  },
  {
    ...lifecycleRoute(
      '/refusals',
      'refuseRequest',
      'Refuse the request',
      'From any open status to `refused`, with a reason from the documented list (docs/lifecycle.md), the message the requester is told and the internal rationale. All three are optional: the reason defaults to `other` and the message to a notice of the reason that names the right to complain to the supervisory authority.',
      refusalCommand,
    ),
    bodyOptional: true,
  },
  {
    ...lifecycleRoute(
      '/closures',
      'closeRequest',
      'Close the request',
      'From any other status to `closed`. An open request closed without a reason is `withdrawn`; a fulfilled or refused one is `completed`.',
      closureCommand,
    ),
    bodyOptional: true,
  },
  lifecycleRoute('/requestor', 'replaceRequestor', 'Replace the requestor snapshot', 'Replaces the requestor as a whole (`type` required) on an open request.', requestorCommand, [], 'PUT'),
  lifecycleRoute(
    '/authority/submit',
    'submitAuthority',
    "Submit evidence of the requestor's authority",
    'Records the evidence that the requestor may act for the data subject (e.g. a power of attorney), replacing any earlier submission; `status` is normally `submitted`.',
    authoritySubmitCommand,
  ),
  {
    ...lifecycleRoute(
      '/authority/approve',
      'approveAuthority',
      'Approve submitted authority evidence',
      'Submitted evidence becomes `verified` (with `verifiedAt`). Evidence in any other status answers 409 `AUTHORITY_NOT_SUBMITTED`.',
      authorityApproveCommand,
      ['AUTHORITY_NOT_SUBMITTED'],
    ),
    bodyOptional: true,
  },
  {
    ...lifecycleRoute(
      '/authority/reject',
      'rejectAuthority',
      'Reject submitted authority evidence',
      'Submitted evidence becomes `rejected`. Evidence in any other status answers 409 `AUTHORITY_NOT_SUBMITTED`.',
      authorityRejectCommand,
      ['AUTHORITY_NOT_SUBMITTED'],
    ),
    bodyOptional: true,
  },
];
