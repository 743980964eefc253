export * from './errors/error-catalog';
export * from './events/topics';
export * from './events/cloud-event';
export * from './events/event-catalog';
export * from './events/request-events';
export * from './events/domain-catalog';
