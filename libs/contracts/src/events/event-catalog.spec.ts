import { z } from 'zod';
import { domainEventCatalog } from './domain-catalog';
import { EventCatalog, type EventTypeDefinition } from './event-catalog';
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
