import { z } from 'zod';
import { timestamp } from '../http/fields';

/**
 * CloudEvents 1.0, structured JSON mode, with the `tenantid` extension. This is
 * the value of every message on every topic. `subject` is the request id (the
 * partition key), so consumers can tell which request an event concerns without
 * reading `data`.
 */
export const cloudEventEnvelopeSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.uuid(),
  source: z.string().min(1),
  type: z.string().regex(/^dsar\.[a-z_]+(\.[a-z_]+)*\.v\d+$/, 'type must look like dsar.<context>.<fact>.v<n>'),
  subject: z.string().min(1),
  time: timestamp,
  datacontenttype: z.literal('application/json'),
  tenantid: z.string().min(1),
  traceparent: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});

export type CloudEventEnvelope = z.infer<typeof cloudEventEnvelopeSchema>;

export interface CloudEvent<TData> extends Omit<CloudEventEnvelope, 'data'> {
  data: TData;
}

/** Kafka header names carried beside the structured value. */
export const CloudEventHeaders = {
  id: 'ce_id',
  type: 'ce_type',
  source: 'ce_source',
  traceparent: 'traceparent',
  contentType: 'content-type',
} as const;

export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';
