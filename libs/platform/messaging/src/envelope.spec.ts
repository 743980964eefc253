import { randomUUID } from 'node:crypto';
import { CLOUDEVENTS_CONTENT_TYPE, cloudEventEnvelopeSchema, domainEventCatalog, RequestEventTypes, Topics } from '@dsar/contracts';
import { buildEvent, InvalidEventError, parseEnvelope, toBusMessage } from './envelope';

const catalog = domainEventCatalog();
const source = '/dsar/lifecycle-clock';
const requestId = randomUUID();

const createdData = () => ({
  requestId,
  tenantId: 'tenant-a',
  workspaceId: null,
  jurisdiction: 'GDPR',
  requestType: 'access',
  requestTypeInferred: false,
  status: 'received',
  receivedAt: '2025-03-01T10:00:00.000Z',
  intakeReceivedAt: '2025-03-01T09:59:00.000Z',
  dueAt: '2025-04-01T21:59:59.999Z',
  clockMode: 'receipt',
  policyPack: 'eu-gdpr',
  policyVersion: '1.0.0',
  channel: 'web_form',
  requestorType: 'subject',
});

const draft = (data: Record<string, unknown> = createdData()) => ({
  type: RequestEventTypes.created,
  subject: requestId,
  tenantId: 'tenant-a',
  data,
});

describe('buildEvent validation', () => {
  it('rejects data that does not match the catalog schema, naming the field', () => {
    let error: unknown;
    try {
      buildEvent(catalog, source, draft({ ...createdData(), jurisdiction: undefined, receivedAt: 'yesterday' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidEventError);
    const invalid = error as InvalidEventError;
    expect(invalid.eventType).toBe(RequestEventTypes.created);
    expect(invalid.problems.map((p) => p.split(':')[0]).sort()).toEqual(['jurisdiction', 'receivedAt']);
    expect(invalid.message).toContain('jurisdiction');
  });

  it('rejects a type the catalog does not know', () => {
    expect(() => buildEvent(catalog, source, { ...draft(), type: 'dsar.request.vanished.v1' })).toThrow(/Unknown event type dsar\.request\.vanished\.v1/);
  });
});

describe('buildEvent envelope', () => {
  it('produces a CloudEvents 1.0 envelope with subject, tenant, uuid id and ISO time', () => {
    const before = Date.now();
    const event = buildEvent(catalog, source, draft());
    expect(event).toMatchObject({
      specversion: '1.0',
      source,
      type: RequestEventTypes.created,
      subject: requestId,
      tenantid: 'tenant-a',
      datacontenttype: 'application/json',
      data: createdData(),
    });
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(event.time)).toBeGreaterThanOrEqual(before);
    expect(cloudEventEnvelopeSchema.safeParse(event).success).toBe(true);
  });

  it('gives each event its own id and keeps a given id, time and traceparent', () => {
    expect(buildEvent(catalog, source, draft()).id).not.toBe(buildEvent(catalog, source, draft()).id);
    const id = randomUUID();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const event = buildEvent(catalog, source, { ...draft(), id, time: new Date('2025-01-02T03:04:05Z'), traceparent });
    expect(event).toMatchObject({ id, time: '2025-01-02T03:04:05.000Z', traceparent });
  });

  it('drops members the schema does not define from data', () => {
    const event = buildEvent(catalog, source, draft({ ...createdData(), email: 'subject@example.com' }));
    expect(event.data).not.toHaveProperty('email');
  });
});

describe('toBusMessage', () => {
  it('keys the message by subject and carries the CloudEvents headers', () => {
    const event = buildEvent(catalog, source, draft());
    const message = toBusMessage(Topics.request, event);
    expect(message.topic).toBe(Topics.request);
    expect(message.key).toBe(requestId);
    expect(message.headers).toEqual({
      ce_id: event.id,
      ce_type: RequestEventTypes.created,
      ce_source: source,
      'content-type': CLOUDEVENTS_CONTENT_TYPE,
    });
    expect(JSON.parse(message.value)).toEqual(event);
  });

  it('adds a traceparent header when the event has one', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const message = toBusMessage(Topics.request, buildEvent(catalog, source, { ...draft(), traceparent }));
    expect(message.headers['traceparent']).toBe(traceparent);
  });
});

describe('parseEnvelope', () => {
  it('reads back what toBusMessage wrote', () => {
    const event = buildEvent(catalog, source, draft());
    expect(parseEnvelope(toBusMessage(Topics.request, event).value)).toEqual(event);
  });

  it('rejects a value that is not JSON', () => {
    expect(() => parseEnvelope('{"specversion":"1.0",')).toThrow('message value is not JSON');
  });

  it('rejects JSON that is not a CloudEvent, naming what is wrong', () => {
    expect(() => parseEnvelope(JSON.stringify({ hello: 'world' }))).toThrow(/^not a CloudEvent: .*specversion/);
    const event = buildEvent(catalog, source, draft());
    expect(() => parseEnvelope(JSON.stringify({ ...event, specversion: '0.3' }))).toThrow(/^not a CloudEvent: specversion: /);
    expect(() => parseEnvelope(JSON.stringify({ ...event, id: 'not-a-uuid' }))).toThrow(/^not a CloudEvent: id: /);
    expect(() => parseEnvelope(JSON.stringify({ ...event, tenantid: undefined }))).toThrow(/^not a CloudEvent: tenantid: /);
  });
});
