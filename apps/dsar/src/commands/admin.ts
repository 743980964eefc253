import type { Command } from 'commander';
import { readJsonArgument } from '../body';
import { ENDPOINTS } from '../endpoints';
import { type FieldFlag, intArg, type Kit } from '../kit';

const PROPOSAL = '2c9a7e51-0d3b-4f6e-8a1c-5b4d3e2f1a09';
/** The contracts' PROPOSAL_STATUSES and RELEASE_TYPES (libs/contracts/src/http/policy-admin.ts); the CLI imports no runtime code of the contracts. */
const PROPOSAL_STATUSES = ['pending_approval', 'approved', 'applied'] as const;
const RELEASE_TYPES = ['major', 'minor', 'patch'] as const;

/** `--pack @pack.json`: the pack document, from a file, standard input or inline; read while the action starts, which awaits it. */
function packArg(value: string): Promise<unknown> {
  const pack = readJsonArgument(value, '--pack');
  pack.catch(() => undefined); // a failure is the action's to report, not an unhandled rejection before it awaits
  return pack;
}

/** Retention policies per tenant ([retention]; docs/retention.md once it lands). */
function retentionCommands(program: Command, kit: Kit): void {
  const retention = program.command('retention').description('retention policies of a tenant, and what the next purge would remove');
  kit.api(retention, {
    name: 'get <tenantId>',
    summary: "the tenant's retention policy of every class (GET /tenants/:tenantId/retention)",
    endpoint: ENDPOINTS.getRetentionPolicies,
    view: { columns: { '': ['class', 'minDays', 'maxDays', 'purgeEnabled', 'legalHoldEnabled', 'updatedAt'] } },
    examples: ['dsar retention get acme'],
  });
  const toggles: FieldFlag[] = [
    { flags: '--purge', description: 'purge records of the class when they expire', field: 'purgeEnabled' },
    { flags: '--no-purge', description: 'keep them', field: 'purgeEnabled' },
    { flags: '--legal-hold', description: 'stop every purge of the class (legal hold)', field: 'legalHoldEnabled' },
    { flags: '--no-legal-hold', description: 'lift the legal hold', field: 'legalHoldEnabled' },
  ];
  kit.api(retention, {
    name: 'set <tenantId>',
    summary: 'create or update the policy of one class (PUT /tenants/:tenantId/retention)',
    endpoint: ENDPOINTS.setRetentionPolicy,
    body: [
      { flags: '--class <class>', description: 'request_record, audit_event, verification_evidence, fulfilment_artifact, delivery_log or notification_log', field: 'class', required: true },
      { flags: '--min-days <n>', description: 'nothing is purged before (default 30)', field: 'minDays', parse: intArg(0) },
      { flags: '--max-days <n>', description: 'purgeable after (default 365)', field: 'maxDays', parse: intArg(0) },
      ...toggles,
    ],
    examples: ['dsar retention set acme --class delivery_log --max-days 180 --purge', 'dsar retention set acme --class audit_event --legal-hold'],
  });
  kit.api(retention, {
    name: 'report <tenantId>',
    summary: 'what the next sweep would purge, per class, without purging (GET /tenants/:tenantId/retention/report)',
    endpoint: ENDPOINTS.getRetentionReport,
    examples: ['dsar retention report acme'],
  });
}

/** The policy pack catalog, upgrade proposals and custom packs (docs/policy-packs/README.md). */
function policiesCommands(program: Command, kit: Kit): void {
  const policies = program.command('policies').description('policy packs: what new requests use, upgrade proposals, custom packs');
  kit.api(policies, {
    name: 'list',
    summary: "the policy packs the caller's new requests use today: built-in packs and activated custom packs (GET /policies)",
    endpoint: ENDPOINTS.listPolicies,
    query: [
      { flags: '--jurisdiction <code>', description: 'only packs covering this code, e.g. DE or US-CA', field: 'jurisdiction' },
      { flags: '--pack-id <packId>', description: 'only this pack, e.g. eu-gdpr', field: 'packId' },
    ],
    view: { columns: { '': ['packId', 'name', 'jurisdiction', 'version', 'source', 'activatedFor', 'publishedAt'] } },
    examples: ['dsar policies list', 'dsar policies list --jurisdiction FR'],
  });
  kit.api(policies, {
    name: 'get <packId>',
    summary: 'a policy pack document, built-in or a custom pack of the tenant by its name (GET /policies/:packId)',
    endpoint: ENDPOINTS.getPolicyPack,
    query: [{ flags: '--version <version>', description: 'a published version; default the one in force today', field: 'version' }],
    examples: ['dsar policies get eu-gdpr', 'dsar policies get uk-gdpr --version 1.0.0', 'dsar policies get acme-uk --version 1.1.0'],
  });

  const upgrades = policies.command('upgrades').description("upgrade proposals: move the tenant's packs to their newest releases, approved by a second admin (four eyes)");
  kit.api(upgrades, {
    name: 'propose',
    summary: 'propose upgrading every built-in pack and custom activation of the tenant that is behind its newest release (POST /policies/upgrades/propose)',
    endpoint: ENDPOINTS.proposePolicyUpgrade,
    body: [{ flags: '--repin', description: 'apply also re-pins the open requests to the new versions (default: they keep theirs)', field: 'repinOpenRequests' }],
    examples: ['dsar policies upgrades propose', 'dsar policies upgrades propose --repin'],
  });
  kit.api(upgrades, {
    name: 'list',
    summary: "the tenant's upgrade proposals, newest first (GET /policies/upgrades)",
    endpoint: ENDPOINTS.listPolicyUpgrades,
    query: [{ flags: '--status <status>', description: 'only proposals in this state', field: 'status', choices: PROPOSAL_STATUSES }],
    view: { columns: { '': ['proposalId', 'status', 'repinOpenRequests', 'proposedBy', 'proposedAt', 'approvedBy', 'appliedAt'] } },
    examples: ['dsar policies upgrades list', 'dsar policies upgrades list --status pending_approval'],
  });
  kit.api(upgrades, {
    name: 'get <proposalId>',
    summary: 'one upgrade proposal: its changes, changelogs, open requests, and who proposed, approved and applied it (GET /policies/upgrades/:proposalId)',
    endpoint: ENDPOINTS.getPolicyUpgrade,
    view: { columns: { changes: ['source', 'packId', 'jurisdiction', 'workspaceId', 'from', 'to', 'openRequests', 'changelog'] } },
    examples: [`dsar policies upgrades get ${PROPOSAL}`],
  });
  kit.api(upgrades, {
    name: 'approve <proposalId>',
    summary: 'approve a pending proposal; not by its proposer unless the tenant turned four eyes off (POST /policies/upgrades/:proposalId/approve)',
    endpoint: ENDPOINTS.approvePolicyUpgrade,
    examples: [`dsar policies upgrades approve ${PROPOSAL} --token "$SECOND_ADMIN_TOKEN"`],
  });
  kit.api(upgrades, {
    name: 'apply <proposalId>',
    summary: 'apply an approved proposal: new requests use the new versions (POST /policies/upgrades/:proposalId/apply)',
    endpoint: ENDPOINTS.applyPolicyUpgrade,
    examples: [`dsar policies upgrades apply ${PROPOSAL}`],
  });

  const custom = policies
    .command('custom')
    .description('custom policy packs of the tenant: register versions, approve them (four eyes), activate one per jurisdiction for the tenant or a workspace, deactivate');
  kit.api(custom, {
    name: 'register',
    summary: 'register a version of a custom pack (POST /policies/custom/register)',
    endpoint: ENDPOINTS.registerCustomPolicy,
    body: [
      { flags: '--jurisdiction <code>', description: 'the jurisdiction the pack is for, one the pack covers, e.g. GB', field: 'jurisdiction', required: true },
      { flags: '--pack <json>', description: 'the pack document: @pack.json, - (standard input) or inline JSON', field: 'pack', parse: packArg, required: true },
      { flags: '--name <name>', description: "the pack's name (default: the pack's packId, which it must equal)", field: 'name' },
      { flags: '--version <semver>', description: "the version, above the last registered one of the name (default: the pack's version, which it must equal)", field: 'version' },
      { flags: '--release-type <type>', description: 'the semver step from the last registered version', field: 'metadata.releaseType', choices: RELEASE_TYPES, required: true },
      { flags: '--changelog <text>', description: 'what this version changes', field: 'metadata.changelog', required: true },
      { flags: '--compatibility-notes <text>', description: 'what users of the previous version should know', field: 'metadata.compatibilityNotes', required: true },
      { flags: '--published-at <time>', description: 'when it was published (ISO 8601; default the registration time)', field: 'publishedAt' },
    ],
    complete: (body) => {
      // name and version restate the pack's packId and version: taken from the pack when not given.
      const pack = body.pack;
      if (typeof pack !== 'object' || pack === null || Array.isArray(pack)) return;
      const { packId, version } = pack as Record<string, unknown>;
      if (body.name === undefined && typeof packId === 'string') body.name = packId;
      if (body.version === undefined && typeof version === 'string') body.version = version;
    },
    examples: [
      'dsar policies custom register --jurisdiction GB --pack @acme-uk.json --release-type minor --changelog "20-day response target" --compatibility-notes "None"',
      'dsar policies custom register --data @registration.json        # {jurisdiction, name, version, pack, metadata: {changelog, compatibilityNotes, releaseType}}',
    ],
  });
  kit.api(custom, {
    name: 'approve',
    summary: 'approve a registered version, as a second admin: under four eyes only an approved version can be activated (POST /policies/custom/approve)',
    endpoint: ENDPOINTS.approveCustomPolicy,
    body: [
      { flags: '--jurisdiction <code>', description: 'the jurisdiction the version is registered for', field: 'jurisdiction', required: true },
      { flags: '--name <name>', description: "the custom pack's name", field: 'name', required: true },
      { flags: '--version <semver>', description: 'the registered version approved', field: 'version', required: true },
    ],
    examples: ['dsar policies custom approve --jurisdiction GB --name acme-uk --version 1.1.0 --token "$SECOND_ADMIN_TOKEN"'],
  });
  kit.api(custom, {
    name: 'activate',
    summary: 'new requests of the tenant (or of one workspace) in the jurisdiction pin a registered custom pack version (POST /policies/custom/activate)',
    endpoint: ENDPOINTS.activateCustomPolicy,
    body: [
      { flags: '--jurisdiction <code>', description: 'the jurisdiction', field: 'jurisdiction', required: true },
      { flags: '--tenant <tenantId>', description: "the caller's own tenant", field: 'tenantId', required: true },
      { flags: '--version <semver>', description: 'the registered version', field: 'version', required: true },
      { flags: '--workspace <workspaceId>', description: 'only this workspace (it wins over a tenant-wide activation); default the whole tenant', field: 'workspaceId' },
      { flags: '--name <name>', description: "the custom pack's name; needed only when packs of several names have this jurisdiction and version", field: 'name' },
    ],
    examples: [
      'dsar policies custom activate --jurisdiction GB --tenant acme --version 1.1.0',
      'dsar policies custom activate --jurisdiction GB --tenant acme --version 1.1.0 --workspace north --name acme-uk',
    ],
  });
  kit.api(custom, {
    name: 'deactivate',
    summary: 'end the custom pack activations of the tenant or a workspace: new requests use the built-in pack again (POST /policies/custom/deactivate)',
    endpoint: ENDPOINTS.deactivateCustomPolicy,
    body: [
      { flags: '--tenant <tenantId>', description: "the caller's own tenant", field: 'tenantId', required: true },
      { flags: '--workspace <workspaceId>', description: 'the workspace whose activations end; default the tenant-wide ones', field: 'workspaceId' },
      { flags: '--jurisdiction <code>', description: "only this jurisdiction's activation; default every one of the scope", field: 'jurisdiction' },
    ],
    examples: ['dsar policies custom deactivate --tenant acme', 'dsar policies custom deactivate --tenant acme --workspace north --jurisdiction GB'],
  });
}

/** Who the configured token is: which tenant, workspace and roles it acts as, and what they permit. */
function whoamiCommand(program: Command, kit: Kit): void {
  kit.api(program, {
    name: 'whoami',
    summary: 'who the token is: principal, tenant, workspace, roles and the permissions they grant (GET /session)',
    endpoint: ENDPOINTS.getSession,
    examples: ['dsar whoami', 'dsar whoami -o table'],
  });
}

export function adminCommands(program: Command, kit: Kit): void {
  whoamiCommand(program, kit);
  retentionCommands(program, kit);
  policiesCommands(program, kit);
}
