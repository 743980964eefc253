import { z } from 'zod';
import { policyPackSchema } from '../policy/policy-pack';
import { text, timestamp } from './fields';
import { PACK_ID } from './policies';

/**
 * HTTP contracts of policy administration (docs/policy-packs/README.md):
 * upgrade proposals that move a tenant's packs to newer releases under four
 * eyes, and custom packs a tenant registers, has approved by a second admin
 * (four eyes) and activates for itself or one of its workspaces.
 */

export const SEMVER_PATTERN = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
const semver = z.string().regex(SEMVER_PATTERN, 'must be a version MAJOR.MINOR.PATCH, e.g. 1.2.0');
const jurisdictionCode = z
  .string()
  .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/, 'must be a jurisdiction code such as DE, EU or US-CA')
  .transform((s) => s.toUpperCase())
  .describe('A jurisdiction code (ISO 3166-1/-2 or EU; case-insensitive)');
const scopeId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be an id of letters, digits, dots, colons, dashes or underscores');

export const PROPOSAL_STATUSES = ['pending_approval', 'approved', 'applied'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const RELEASE_TYPES = ['major', 'minor', 'patch'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

/** `POST /policies/upgrades/propose`: no body needed; `repinOpenRequests` asks apply to move open requests too. */
export const upgradeProposalCommand = z
  .strictObject({
    repinOpenRequests: z
      .boolean()
      .optional()
      .describe('Apply also re-pins the open requests of each upgraded pack to the new version (a clock event per request). Default false: open requests keep the version they pinned.'),
  })
  .meta({ id: 'UpgradeProposalCommand' });
export type UpgradeProposalCommand = z.infer<typeof upgradeProposalCommand>;

export const upgradeChange = z
  .object({
    source: z.enum(['built_in', 'custom']),
    packId: z.string().describe("The pack id (a custom pack's `name`)"),
    jurisdiction: z.string().nullable().describe('For a custom pack: the jurisdiction it is activated for; null for a built-in pack'),
    workspaceId: z.string().nullable().describe('For a custom pack activated for one workspace: that workspace'),
    from: z.string().describe('The version the tenant uses now'),
    to: z.string().describe('The newest release'),
    changelog: z.string().describe('What changed from `from` to `to`, newest release first'),
    openRequests: z.number().int().nonnegative().describe('Open requests of the tenant pinned to `from` when the proposal was made'),
  })
  .meta({ id: 'PolicyUpgradeChange' });
export type UpgradeChange = z.infer<typeof upgradeChange>;

export const upgradeProposal = z
  .object({
    proposalId: z.uuid(),
    tenantId: z.string(),
    status: z.enum(PROPOSAL_STATUSES),
    repinOpenRequests: z.boolean(),
    changes: z.array(upgradeChange),
    proposedBy: z.string(),
    proposedAt: timestamp,
    approvedBy: z.string().nullable(),
    approvedAt: timestamp.nullable(),
    appliedBy: z.string().nullable(),
    appliedAt: timestamp.nullable(),
  })
  .meta({ id: 'PolicyUpgradeProposal', description: "An upgrade of the tenant's pack set and the steps it went through." });
export type UpgradeProposal = z.infer<typeof upgradeProposal>;

export const upgradeProposalList = z.array(upgradeProposal);

export const upgradeProposalStatus = z.object({ proposalId: z.uuid(), status: z.enum(PROPOSAL_STATUSES) }).meta({ id: 'PolicyUpgradeProposalStatus' });
export type UpgradeProposalStatus = z.infer<typeof upgradeProposalStatus>;

export const upgradeProposalListQuery = z.strictObject({ status: z.enum(PROPOSAL_STATUSES).optional().describe('Only proposals in this state') }).meta({ id: 'PolicyUpgradeListQuery' });
export type UpgradeProposalListQuery = z.infer<typeof upgradeProposalListQuery>;

export const customPackRegistration = z
  .strictObject({
    jurisdiction: jurisdictionCode,
    name: z.string().regex(PACK_ID, 'must be a pack id: lower-case letters, digits and dashes, e.g. acme-uk').describe("The pack's name, equal to `pack.packId`"),
    version: semver.describe('The version registered, equal to `pack.version`'),
    pack: policyPackSchema.describe('The pack document (docs/policy-packs/policy-pack.schema.json)'),
    publishedAt: timestamp.optional().describe('When the release was published; default the registration time'),
    metadata: z.strictObject({
      changelog: text(4000).describe('What this version changes'),
      compatibilityNotes: text(4000).describe('What users of the previous version should know'),
      releaseType: z.enum(RELEASE_TYPES).describe('The semver step from the last registered version'),
    }),
  })
  .meta({ id: 'CustomPackRegistration' });
export type CustomPackRegistration = z.infer<typeof customPackRegistration>;

export const customPackRegistered = z.object({ jurisdiction: z.string(), name: z.string(), status: z.literal('registered'), version: z.string() }).meta({ id: 'CustomPackRegistered' });
export type CustomPackRegistered = z.infer<typeof customPackRegistered>;

/**
 * `POST /policies/custom/approve`: a second admin's approval of one registered version. Registered versions never
 * change, so name, jurisdiction and version name exactly the document the approver read.
 */
export const customPackApproval = z
  .strictObject({
    jurisdiction: jurisdictionCode,
    name: z.string().regex(PACK_ID, 'must be a pack id such as acme-uk').describe("The custom pack's name"),
    version: semver.describe('The registered version approved'),
  })
  .meta({ id: 'CustomPackApproval' });
export type CustomPackApproval = z.infer<typeof customPackApproval>;

export const customPackApproved = z
  .object({
    jurisdiction: z.string(),
    name: z.string(),
    status: z.literal('approved'),
    version: z.string(),
    registeredBy: z.string().describe('The principal that registered the version'),
    approvedBy: z.string().describe('The principal whose approval is recorded: the caller, or whoever approved the version before'),
    approvedAt: timestamp,
  })
  .meta({ id: 'CustomPackApproved' });
export type CustomPackApproved = z.infer<typeof customPackApproved>;

export const customPackActivation = z
  .strictObject({
    jurisdiction: jurisdictionCode,
    tenantId: scopeId.describe("The caller's own tenant"),
    version: semver,
    workspaceId: scopeId.optional().describe('Activate for this workspace only (it wins over a tenant-wide activation); default the whole tenant'),
    name: z.string().regex(PACK_ID, 'must be a pack id such as acme-uk').optional().describe("The custom pack's name; needed only when packs of several names have this jurisdiction and version"),
  })
  .meta({ id: 'CustomPackActivation' });
export type CustomPackActivation = z.infer<typeof customPackActivation>;

export const customPackActivated = z
  .object({
    jurisdiction: z.string(),
    name: z.string(),
    status: z.literal('activated'),
    tenantId: z.string(),
    version: z.string(),
    workspaceId: z.string().nullable(),
  })
  .meta({ id: 'CustomPackActivated' });
export type CustomPackActivated = z.infer<typeof customPackActivated>;

export const customPackDeactivation = z
  .strictObject({
    tenantId: scopeId.describe("The caller's own tenant"),
    workspaceId: scopeId.optional().describe('The workspace whose activations end; default the tenant-wide ones'),
    jurisdiction: jurisdictionCode.optional().describe("Only this jurisdiction's activation; default every activation of the scope"),
  })
  .meta({ id: 'CustomPackDeactivation' });
export type CustomPackDeactivation = z.infer<typeof customPackDeactivation>;

export const customPackDeactivated = z
  .object({
    status: z.literal('deactivated'),
    tenantId: z.string(),
    workspaceId: z.string().nullable(),
    jurisdictions: z.array(z.string()).describe('The jurisdictions whose custom pack was deactivated; they use the built-in pack again'),
  })
  .meta({ id: 'CustomPackDeactivated' });
export type CustomPackDeactivated = z.infer<typeof customPackDeactivated>;

/** lifecycle-clock's internal answer: how many open requests of the caller's scope pin each pack version. */
export const policyUsage = z.object({
  policyPack: z.string(),
  policyVersion: z.string(),
  jurisdiction: z.string(),
  open: z.number().int().nonnegative(),
});
export type PolicyUsage = z.infer<typeof policyUsage>;
