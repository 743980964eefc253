import type { Command } from 'commander';
import { readJsonArgument } from '../body';
import { ENDPOINTS } from '../endpoints';
import { type FieldFlag, intArg, type Kit } from '../kit';

const PROPOSAL = '2c9a7e51-0d3b-4f6e-8a1c-5b4d3e2f1a09';

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
    summary: 'the tenant\'s retention policy of every class (GET /tenants/:tenantId/retention)',
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
  const policies = program.command('policies').description('policy packs: the catalog, upgrade proposals, custom packs');
  kit.api(policies, {
    name: 'list',
    summary: 'the policy packs the caller may use, current versions (GET /policies)',
    endpoint: ENDPOINTS.listPolicies,
    query: [
      { flags: '--jurisdiction <code>', description: 'only packs covering this code, e.g. DE or US-CA', field: 'jurisdiction' },
      { flags: '--pack-id <packId>', description: 'only this pack, e.g. eu-gdpr', field: 'packId' },
    ],
    view: { columns: { '': ['packId', 'name', 'jurisdiction', 'version', 'publishedAt'] } },
    examples: ['dsar policies list', 'dsar policies list --jurisdiction FR'],
  });
  kit.api(policies, {
    name: 'get <packId>',
    summary: 'a policy pack document (GET /policies/:packId)',
    endpoint: ENDPOINTS.getPolicyPack,
    query: [{ flags: '--version <version>', description: 'a published version; default the current one', field: 'version' }],
    examples: ['dsar policies get eu-gdpr', 'dsar policies get gb-uk-gdpr --version 1.0.0'],
  });

  const upgrades = policies.command('upgrades').description('upgrade proposals of the tenant\'s pack versions (four eyes)');
  kit.api(upgrades, {
    name: 'propose',
    summary: 'propose upgrading the tenant\'s pinned pack versions to the newest releases (POST /policies/upgrades/propose)',
    endpoint: ENDPOINTS.proposePolicyUpgrade,
    examples: ['dsar policies upgrades propose'],
  });
  kit.api(upgrades, {
    name: 'list',
    summary: 'the tenant\'s upgrade proposals (GET /policies/upgrades)',
    endpoint: ENDPOINTS.listPolicyUpgrades,
    examples: ['dsar policies upgrades list'],
  });
  kit.api(upgrades, {
    name: 'get <proposalId>',
    summary: 'one upgrade proposal with its changes (GET /policies/upgrades/:proposalId)',
    endpoint: ENDPOINTS.getPolicyUpgrade,
    examples: [`dsar policies upgrades get ${PROPOSAL}`],
  });
  kit.api(upgrades, {
    name: 'approve <proposalId>',
    summary: 'approve a proposal; by default not by its proposer (POST /policies/upgrades/:proposalId/approve)',
    endpoint: ENDPOINTS.approvePolicyUpgrade,
    examples: [`dsar policies upgrades approve ${PROPOSAL}`],
  });
  kit.api(upgrades, {
    name: 'apply <proposalId>',
    summary: 'apply an approved proposal: new requests use the new versions (POST /policies/upgrades/:proposalId/apply)',
    endpoint: ENDPOINTS.applyPolicyUpgrade,
    examples: [`dsar policies upgrades apply ${PROPOSAL}`],
  });

  const custom = policies.command('custom').description('custom policy packs: register, activate per tenant or workspace, deactivate');
  kit.api(custom, {
    name: 'register',
    summary: 'register a custom pack version (POST /policies/custom/register)',
    endpoint: ENDPOINTS.registerCustomPolicy,
    body: [
      { flags: '--jurisdiction <code>', description: 'the jurisdiction the pack is for', field: 'jurisdiction', required: true },
      { flags: '--name <name>', description: 'the pack\'s name', field: 'name', required: true },
      { flags: '--version <semver>', description: 'its version, above the last registered one', field: 'version', required: true },
      { flags: '--pack <json>', description: 'the pack document: @pack.json, - (standard input) or inline JSON', field: 'pack', parse: packArg, required: true },
      { flags: '--release-type <type>', description: 'major, minor or patch', field: 'metadata.releaseType', required: true },
      { flags: '--changelog <text>', description: 'what changed', field: 'metadata.changelog', required: true },
      { flags: '--compatibility-notes <text>', description: 'what users of the previous version must know', field: 'metadata.compatibilityNotes', required: true },
      { flags: '--published-at <time>', description: 'when it was published (ISO 8601)', field: 'publishedAt' },
    ],
    examples: ['dsar policies custom register --jurisdiction DE --name acme-de --version 1.1.0 --pack @acme-de.json --release-type minor --changelog "Shorter target" --compatibility-notes "None"'],
  });
  kit.api(custom, {
    name: 'activate',
    summary: 'use a registered custom pack for new requests of a tenant or workspace (POST /policies/custom/activate)',
    endpoint: ENDPOINTS.activateCustomPolicy,
    body: [
      { flags: '--jurisdiction <code>', description: 'the pack\'s jurisdiction', field: 'jurisdiction', required: true },
      { flags: '--tenant <tenantId>', description: 'the tenant (the caller\'s own)', field: 'tenantId', required: true },
      { flags: '--version <semver>', description: 'the registered version', field: 'version', required: true },
      { flags: '--workspace <workspaceId>', description: 'only this workspace (wins over the tenant\'s)', field: 'workspaceId' },
    ],
    examples: ['dsar policies custom activate --jurisdiction DE --tenant acme --version 1.1.0 --workspace eu-web'],
  });
  kit.api(custom, {
    name: 'deactivate',
    summary: 'go back to the built-in pack (POST /policies/custom/deactivate)',
    endpoint: ENDPOINTS.deactivateCustomPolicy,
    body: [
      { flags: '--tenant <tenantId>', description: 'the tenant', field: 'tenantId', required: true },
      { flags: '--workspace <workspaceId>', description: 'only this workspace', field: 'workspaceId' },
    ],
    examples: ['dsar policies custom deactivate --tenant acme'],
  });
}

export function adminCommands(program: Command, kit: Kit): void {
  retentionCommands(program, kit);
  policiesCommands(program, kit);
}
