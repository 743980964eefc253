import { z } from 'zod';
import { timestamp } from '../http/fields';
import { ARTIFACT_TYPES, DELIVERY_CHANNELS, DELIVERY_SECURITY_LEVELS, MANIFEST_VALIDATION_STATES } from '../http/fulfilment';
import type { EventTypeDefinition } from './event-catalog';
import { requestSubject } from './request-events';
import { Topics } from './topics';

/**
 * Facts of fulfilment (dsar.fulfilment.v1) and delivery (dsar.delivery.v1),
 * owned by fulfilment-delivery, keyed by request id so they land on the
 * request's timeline and audit chain. Filenames, titles, comments and
 * supplementary information stay in the service; events carry ids, types,
 * sizes, hashes, counts and states.
 */
const facts = { ...requestSubject, actor: z.string().min(1), occurredAt: timestamp };

const artifactFacts = {
  artifactId: z.uuid(),
  artifactKey: z.string(),
  version: z.number().int().positive(),
  type: z.enum(ARTIFACT_TYPES),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
  manifestVersion: z.number().int().positive(),
};

export const artifactUploadedV1 = z.object({ ...facts, ...artifactFacts });
export const artifactReplacedV1 = z.object({ ...facts, ...artifactFacts, previousSha256: z.string() });
export const manifestRecordedV1 = z.object({
  ...facts,
  manifestVersion: z.number().int().positive(),
  artifactCount: z.number().int().nonnegative(),
  dataCategoryCount: z.number().int().nonnegative(),
  hasSupplementaryInfo: z.boolean(),
});
export const manifestReviewedV1 = z.object({ ...facts, manifestVersion: z.number().int().positive(), validationState: z.enum(MANIFEST_VALIDATION_STATES), hasComment: z.boolean() });
export const requestFulfilmentRecordedV1 = z.object({
  ...facts,
  manifestVersion: z.number().int().nonnegative(),
  artifactCount: z.number().int().nonnegative(),
  purgedVersions: z.number().int().nonnegative(),
});
/** A fulfilment that went ahead although required tasks were open or an erasure unconfirmed: the operator's reason stays in the service. */
export const tasksOverriddenV1 = z.object({
  ...facts,
  openTasks: z.array(z.object({ taskId: z.uuid(), systemKey: z.string(), state: z.string() })).describe('The required tasks that had not settled'),
  reason: z.string().describe("The operator's reason (kept by the audit ledger as a hash)"),
});
export type TasksOverriddenV1 = z.infer<typeof tasksOverriddenV1>;
export const artifactsPurgedV1 = z.object({ ...facts, artifactIds: z.array(z.uuid()), versions: z.number().int().nonnegative() });
export type ArtifactUploadedV1 = z.infer<typeof artifactUploadedV1>;
export type ArtifactReplacedV1 = z.infer<typeof artifactReplacedV1>;
export type ManifestRecordedV1 = z.infer<typeof manifestRecordedV1>;
export type ManifestReviewedV1 = z.infer<typeof manifestReviewedV1>;
export type RequestFulfilmentRecordedV1 = z.infer<typeof requestFulfilmentRecordedV1>;
export type ArtifactsPurgedV1 = z.infer<typeof artifactsPurgedV1>;

export const deliveryPreparedV1 = z.object({ ...facts, channel: z.enum(DELIVERY_CHANNELS), securityLevel: z.enum(DELIVERY_SECURITY_LEVELS), artifactCount: z.number().int().nonnegative() });
export const stepUpIssuedV1 = z.object({ ...facts, challengeId: z.uuid(), expiresAt: timestamp });
export const stepUpCompletedV1 = z.object({ ...facts, challengeId: z.uuid() });
/** Why a step-up token was refused (docs/fulfilment.md#delivery). */
export const STEP_UP_REFUSALS = ['wrong_token', 'expired', 'locked', 'missing_token', 'revoked', 'not_completed', 'throttled'] as const;
export const stepUpFailedV1 = z.object({
  ...facts,
  challengeId: z.uuid().nullable().describe('The challenge the token was checked against; null when the request has none'),
  during: z.enum(['completion', 'download']),
  reason: z.enum(STEP_UP_REFUSALS),
  failures: z.number().int().nonnegative().describe('Wrong tokens counted against the challenge so far (downloads count none)'),
  locked: z.boolean(),
});
export const artifactDeliveredV1 = z.object({
  ...facts,
  challengeId: z.uuid(),
  artifactId: z.uuid(),
  version: z.number().int().positive(),
  bytes: z.boolean().describe('True when the bytes were served, false for the metadata'),
});
export const deliveryLogsPurgedV1 = z.object({ ...facts, entries: z.number().int().nonnegative() });

export const FulfilmentEventTypes = {
  artifactUploaded: 'dsar.fulfilment.artifact_uploaded.v1',
  artifactReplaced: 'dsar.fulfilment.artifact_replaced.v1',
  manifestRecorded: 'dsar.fulfilment.manifest_recorded.v1',
  manifestReviewed: 'dsar.fulfilment.manifest_reviewed.v1',
  fulfilmentRecorded: 'dsar.fulfilment.fulfilment_recorded.v1',
  artifactsPurged: 'dsar.fulfilment.artifacts_purged.v1',
  tasksOverridden: 'dsar.fulfilment.tasks_overridden.v1',
} as const;

export const DeliveryEventTypes = {
  prepared: 'dsar.delivery.prepared.v1',
  stepUpIssued: 'dsar.delivery.step_up_issued.v1',
  stepUpCompleted: 'dsar.delivery.step_up_completed.v1',
  stepUpFailed: 'dsar.delivery.step_up_failed.v1',
  artifactDelivered: 'dsar.delivery.artifact_delivered.v1',
  logsPurged: 'dsar.delivery.logs_purged.v1',
} as const;

const on =
  (topic: string) =>
  (type: string, schema: z.ZodType, description: string): EventTypeDefinition => ({ type, topic, schema, producer: 'fulfilment-delivery', description });
const fulfilment = on(Topics.fulfilment);
const delivery = on(Topics.delivery);

export const fulfilmentEventDefinitions: EventTypeDefinition[] = [
  fulfilment(FulfilmentEventTypes.artifactUploaded, artifactUploadedV1, "An artifact was uploaded to the request's manifest (encrypted at rest); the manifest is pending review."),
  fulfilment(FulfilmentEventTypes.artifactReplaced, artifactReplacedV1, 'An artifact was replaced (for example redacted): same id, new version and hash; the manifest is pending review again.'),
  fulfilment(FulfilmentEventTypes.manifestRecorded, manifestRecordedV1, "An upstream system's callback created or updated the pending manifest; the request is not finalized."),
  fulfilment(FulfilmentEventTypes.manifestReviewed, manifestReviewedV1, 'A reviewer approved or rejected a manifest version.'),
  fulfilment(
    FulfilmentEventTypes.fulfilmentRecorded,
    requestFulfilmentRecordedV1,
    'The request was fulfilled with its approved manifest (or none, for types without artifacts); replaced versions were purged.',
  ),
  fulfilment(FulfilmentEventTypes.artifactsPurged, artifactsPurgedV1, 'Artifact files of a request were deleted (retention class fulfilment_artifact).'),
  {
    ...fulfilment(
      FulfilmentEventTypes.tasksOverridden,
      tasksOverriddenV1,
      'An operator fulfilled the request although required data-system tasks were open or an erasure unconfirmed, with a reason (docs/data-systems.md#the-fulfilment-gate).',
    ),
    personalData: ['reason'],
  },
  delivery(DeliveryEventTypes.prepared, deliveryPreparedV1, 'Delivery of the fulfilled data was prepared on a channel; the data subject is to be told how to collect it.'),
  delivery(DeliveryEventTypes.stepUpIssued, stepUpIssuedV1, 'A step-up challenge was issued for the delivery; its token is valid for 24 hours.'),
  delivery(DeliveryEventTypes.stepUpCompleted, stepUpCompletedV1, 'The step-up challenge was completed: the token opens the delivery downloads until it expires.'),
  delivery(DeliveryEventTypes.stepUpFailed, stepUpFailedV1, 'A wrong, expired or foreign token was presented; after too many the challenge is locked.'),
  delivery(DeliveryEventTypes.artifactDelivered, artifactDeliveredV1, 'An artifact was downloaded through the step-up gate (metadata or bytes).'),
  delivery(DeliveryEventTypes.logsPurged, deliveryLogsPurgedV1, 'Delivery log entries of a request were deleted (retention class delivery_log).'),
];
