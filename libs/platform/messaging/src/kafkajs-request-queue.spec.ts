import { fixIdleRequestQueueTimers } from './kafkajs-request-queue';

/** kafkajs' request queue with the fix: no timer while nothing waits, and requests held back are still sent. */

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  push(request: { entry: { correlationId: number; resolve: () => void; reject: () => void }; expectResponse: boolean; sendRequest: () => void }): void;
  checkPendingRequests(): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
}

const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: Record<string, unknown>) => Queue;

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const newQueue = (): Queue => new RequestQueue({ maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'localhost:9092', logger });
const request = (correlationId: number, sendRequest: () => void) => ({ entry: { correlationId, resolve: () => undefined, reject: () => undefined }, expectResponse: false, sendRequest });

describe('kafkajs request queue, fixed', () => {
  beforeAll(() => fixIdleRequestQueueTimers());

  it('schedules no check while nothing waits (kafkajs alone keeps a 1 ms timer running)', () => {
    const queue = newQueue();
    queue.checkPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
    const sent = jest.fn();
    queue.push(request(1, sent));
    expect(sent).toHaveBeenCalledTimes(1);
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('still sends a request held back by throttling once the throttling ends, then stops checking', async () => {
    const queue = newQueue();
    queue.maybeThrottle(50);
    const sent = jest.fn();
    queue.push(request(2, sent));
    expect(sent).not.toHaveBeenCalled();
    expect(queue.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sent).toHaveBeenCalledTimes(1);
    expect(queue.pending).toEqual([]);
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.destroy();
  });

  it('is applied once however often it is asked for', () => {
    const schedule = (RequestQueue as unknown as { prototype: { scheduleCheckPendingRequests: unknown } }).prototype.scheduleCheckPendingRequests;
    fixIdleRequestQueueTimers();
    expect((RequestQueue as unknown as { prototype: { scheduleCheckPendingRequests: unknown } }).prototype.scheduleCheckPendingRequests).toBe(schedule);
  });
});
