import { appealAccepted, appealCommand, appealDecided, appealDecisionCommand, appealList } from '@dsar/contracts';
import { LIFECYCLE_ERRORS } from './route-errors';
import type { GatewayRoute } from './route-types';

/** Public routes of a request's appeals, kept by lifecycle-clock (docs/lifecycle.md). */
export const APPEAL_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/requests/:id/appeals',
    service: 'lifecycle-clock',
    permission: 'requests:create',
    operationId: 'fileAppeal',
    summary: 'Appeal the outcome of a request',
    description:
      "Only for a `refused`, `fulfilled` or `closed` request, one open appeal at a time. Only `message` and `grounds` are accepted; anything else is a 400. The appeal must be decided by its `dueAt`, on the pack's appeal clock (docs/lifecycle.md).",
    tag: 'Appeals',
    body: appealCommand,
    response: { status: 202, schema: appealAccepted, description: 'The appeal was filed.' },
    errors: [...LIFECYCLE_ERRORS, 'APPEAL_ALREADY_OPEN'],
  },
  {
    method: 'GET',
    path: '/requests/:id/appeals',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'listAppeals',
    summary: 'The appeals of a request, oldest first',
    tag: 'Appeals',
    response: { status: 200, schema: appealList, description: 'The appeals, with their decisions.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/requests/:id/appeals/:appealId/decide',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'decideAppeal',
    summary: 'Decide an appeal',
    description:
      "`approve` and `partial` reopen the request (`in_progress`) on the pack's appeal clock; `deny` leaves it as it is. A decision is final: deciding again answers 409 `APPEAL_ALREADY_DECIDED`.",
    tag: 'Appeals',
    body: appealDecisionCommand,
    response: { status: 202, schema: appealDecided, description: 'The appeal was decided.' },
    errors: [...LIFECYCLE_ERRORS, 'APPEAL_ALREADY_DECIDED'],
  },
];
