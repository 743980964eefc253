import { z } from 'zod';
import { DELIVERY_LOG_EVENT_TYPES, deliveryLogs } from '../http/fulfilment';
import { NOTIFICATION_KINDS } from '../http/notifications';
import { timelineEvent } from '../http/requests';
import { domainEventCatalog } from './domain-catalog';
import { EventCatalog, type EventTypeDefinition, PUBLIC_EVENT_TYPE_PATTERN, publicEventType } from './event-catalog';
import { DeliveryEventTypes } from './fulfilment-events';
import { RequestEventTypes } from './request-events';
import { Topics } from './topics';

const definition = (type: string, topic: string = Topics.request): EventTypeDefinition => ({
  type,
  topic,
  schema: z.object({ n: z.number() }),
  producer: 'test',
  description: `test type ${type}`,
});

describe('EventCatalog registration', () => {
  it('rejects a type registered twice, naming the type', () => {
    const catalog = new EventCatalog([definition('dsar.test.one.v1')]);
    expect(() => catalog.register(definition('dsar.test.one.v1', Topics.intake))).toThrow('Event type dsar.test.one.v1 is registered twice');
    expect(catalog.require('dsar.test.one.v1').topic).toBe(Topics.request);
  });

  it('rejects duplicates given to the constructor', () => {
    expect(() => new EventCatalog([definition('dsar.test.one.v1'), definition('dsar.test.one.v1')])).toThrow(/registered twice/);
  });

  it('looks types up, and `require` names the unknown type', () => {
    const catalog = new EventCatalog([definition('dsar.test.one.v1')]);
    expect(catalog.get('dsar.test.one.v1')?.producer).toBe('test');
    expect(catalog.get('dsar.test.missing.v1')).toBeUndefined();
    expect(() => catalog.require('dsar.test.missing.v1')).toThrow(/Unknown event type dsar\.test\.missing\.v1/);
  });

  it('lists each topic once, sorted', () => {
    const catalog = new EventCatalog([definition('dsar.test.a.v1', Topics.request), definition('dsar.test.b.v1', Topics.intake), definition('dsar.test.c.v1', Topics.request)]);
    expect(catalog.topics()).toEqual([Topics.intake, Topics.request]);
  });
});

describe('EventCatalog.extend', () => {
  it('returns a catalog with the added types and leaves the original as it was', () => {
    const original = new EventCatalog([definition('dsar.test.one.v1')]);
    const extended = original.extend([definition('dsar.test.two.v1', Topics.policy)]);

    expect(extended.types().map((d) => d.type)).toEqual(['dsar.test.one.v1', 'dsar.test.two.v1']);
    expect(original.types().map((d) => d.type)).toEqual(['dsar.test.one.v1']);
    expect(original.get('dsar.test.two.v1')).toBeUndefined();
    expect(original.topics()).toEqual([Topics.request]);
  });

  it('does not let the copy be used to register a type twice', () => {
    const original = new EventCatalog([definition('dsar.test.one.v1')]);
    expect(() => original.extend([definition('dsar.test.one.v1')])).toThrow(/registered twice/);
  });

  it('does not change the shared domain catalog', () => {
    domainEventCatalog().extend([definition('dsar.test.extra.v1')]);
    expect(domainEventCatalog().get('dsar.test.extra.v1')).toBeUndefined();
    expect(domainEventCatalog().get(RequestEventTypes.created)?.topic).toBe(Topics.request);
  });
});

describe('publicEventType: the names the public logs show', () => {
  const types = domainEventCatalog()
    .types()
    .map((d) => d.type);

  it('drops `dsar.` and the version and joins the parts with `_`, as the spec names them', () => {
    expect(publicEventType('dsar.delivery.prepared.v1')).toBe('delivery_prepared');
    expect(publicEventType('dsar.request.created.v1')).toBe('request_created');
    expect(publicEventType('dsar.request.fulfilled.v1')).toBe('request_fulfilled');
    expect(publicEventType('dsar.delivery.step_up_failed.v12')).toBe('delivery_step_up_failed');
  });

  it.each(types)('names %s by a public name: lower-case words, no prefix, no version, no dot', (type) => {
    const name = publicEventType(type);
    expect(name).toMatch(PUBLIC_EVENT_TYPE_PATTERN);
    expect(name).not.toMatch(/^dsar_|_v\d+$/);
    expect(name.length).toBeLessThan(type.length);
    expect(timelineEvent.shape.eventType.safeParse(name).success).toBe(true);
    expect(timelineEvent.shape.eventType.safeParse(type).success).toBe(false);
  });

  it('gives every event type of the catalog a name of its own', () => {
    const names = types.map(publicEventType);
    expect(new Set(names).size).toBe(types.length);
  });

  it("lists the delivery log's event types as the public names of the delivery events it records (all but the purge, which empties it)", () => {
    const recorded = Object.values(DeliveryEventTypes).filter((t) => t !== DeliveryEventTypes.logsPurged);
    expect([...DELIVERY_LOG_EVENT_TYPES]).toEqual(recorded.map(publicEventType));
    const logEventType = deliveryLogs.shape.logs.element.shape.eventType;
    for (const t of recorded) {
      expect(logEventType.safeParse(publicEventType(t)).success).toBe(true);
      expect(logEventType.safeParse(t).success).toBe(false);
    }
  });

  it('names the notification kinds in the same form', () => {
    for (const kind of NOTIFICATION_KINDS) expect(kind).toMatch(PUBLIC_EVENT_TYPE_PATTERN);
  });
});
