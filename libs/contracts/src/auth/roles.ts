/**
 * Roles and what each may do. The gateway checks every route against this
 * matrix; docs/security.md shows the same table (a test keeps them equal).
 */
export const ROLES = ['admin', 'operator', 'auditor', 'intake', 'connector'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  'requests:create': 'Submit new requests (intake and capture) and appeals against their outcome.',
  'requests:read': 'Read the queue, request details, timelines, clocks, appeals and notification history.',
  'requests:act': 'Run workflow actions: acknowledge, clarify, extend, verify, refuse, close, fulfil, deliver, decide appeals, replay notifications.',
  'evidence:read': 'Download identity-evidence files (personal data); the case and its metadata need only requests:read.',
  'artifacts:read':
    "Download fulfilment artifacts (the personal data produced for a request): to review them, and, with the data subject's completed step-up token, to deliver them; the manifest and its metadata need only requests:read.",
  'audit:export': "Export a request's audit chain.",
  'audit:verify': "Verify a request's audit chain and read the tenant's signed checkpoints.",
  'policies:read': 'List policy packs and proposals.',
  'policies:manage': 'Register, activate and upgrade policy packs.',
  'retention:read': 'Read retention policies.',
  'retention:manage': 'Set retention policies.',
  'systems:read': 'Read the data-system registry.',
  'systems:manage': 'Register, change and delete data systems.',
  'tasks:work': "List a data system's pending tasks, claim them, and answer them with their task token (connectors, and the owners of manual systems).",
  'session:read': 'Read who the caller is: its principal, tenant, workspace, roles and what they permit (the console shows only what a caller may do).',
} as const;
export type Permission = keyof typeof PERMISSIONS;

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  // Host applications that only take requests in: least privilege.
  intake: ['requests:create', 'requests:read', 'policies:read', 'session:read'],
  // Reads everything and proves what happened, changes nothing.
  auditor: ['requests:read', 'audit:export', 'audit:verify', 'policies:read', 'retention:read', 'systems:read', 'session:read'],
  // Privacy operations: every workflow action.
  operator: [
    'requests:create',
    'requests:read',
    'requests:act',
    'evidence:read',
    'artifacts:read',
    'audit:export',
    'audit:verify',
    'policies:read',
    'retention:read',
    'systems:read',
    'tasks:work',
    'session:read',
  ],
  // A data system's connector: works on its tasks, sees nothing else.
  connector: ['tasks:work', 'session:read'],
  admin: Object.keys(PERMISSIONS) as Permission[],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether any of the roles grants the permission. */
export function rolesAllow(roles: readonly string[], permission: Permission): boolean {
  return roles.some((r) => isRole(r) && ROLE_PERMISSIONS[r].includes(permission));
}
