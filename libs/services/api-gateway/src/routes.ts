import { APPEAL_ROUTES } from './appeal-routes';
import { AUDIT_ROUTES } from './audit-routes';
import { DATA_SYSTEM_ROUTES } from './data-system-routes';
import { DELIVERY_ROUTES } from './delivery-routes';
import { PORTAL_ROUTES } from './portal-routes';
import { FULFILMENT_ROUTES } from './fulfilment-routes';
import { LIFECYCLE_ROUTES } from './lifecycle-routes';
import { NOTIFICATION_ROUTES } from './notification-routes';
import { POLICY_ROUTES } from './policy-routes';
import { REQUEST_ROUTES } from './request-routes';
import { RETENTION_ROUTES } from './retention-routes';
import { SESSION_ROUTES } from './session-routes';
import type { GatewayRoute } from './route-types';
import { STATS_ROUTES } from './stats-routes';
import { VERIFICATION_ROUTES } from './verification-routes';
import { WEBHOOK_ROUTES } from './webhook-routes';

/**
 * Every public route: the area files' tables, concatenated (the route's shape: route-types.ts; the table's
 * self-checks: route-table-checks.ts). The gateway's routing and authorization and the OpenAPI document come from
 * this table, and the CLI's endpoint list is held to it (apps/dsar/src/endpoint-check.ts): a route added to its area's
 * file is served and published at once, and the CLI's unit tests fail until the CLI calls it. The OpenAPI document
 * lists the paths in this order.
 */
export const ROUTES: readonly GatewayRoute[] = [
  ...REQUEST_ROUTES,
  ...AUDIT_ROUTES,
  ...LIFECYCLE_ROUTES,
  ...APPEAL_ROUTES,
  ...VERIFICATION_ROUTES,
  ...FULFILMENT_ROUTES,
  ...DELIVERY_ROUTES,
  ...PORTAL_ROUTES,
  ...DATA_SYSTEM_ROUTES,
  ...NOTIFICATION_ROUTES,
  ...RETENTION_ROUTES,
  ...WEBHOOK_ROUTES,
  ...POLICY_ROUTES,
  ...STATS_ROUTES,
  ...SESSION_ROUTES,
];
