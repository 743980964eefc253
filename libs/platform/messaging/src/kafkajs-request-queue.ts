/**
 * A fix for kafkajs 2.2.4's request queue, one per broker connection. After every answer it checks its queue of
 * requests held back (by the broker's throttling or the in-flight limit) and schedules the next check; with nothing
 * held back that check is a timer of 1 ms (a negative delay) that schedules the next one the same way, so every
 * connection of an idle service runs a timer every millisecond for as long as it lives. In an idle service that was
 * a few MB of garbage a second (most of what it allocated), CPU for nothing, and V8 never saw the process idle enough
 * to give back the memory of its start-up (measured in docs/performance.md, "Footprint: what was cut").
 *
 * The check is needed only while requests wait: one is scheduled again when a request is queued (`push`), and an
 * answer or a timeout checks the queue itself. So a check with nothing waiting and no throttling is not scheduled.
 */

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
}

// The class is not part of kafkajs' typed API.
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

let applied = false;

/** Applies the fix once per process (kafka-bus.ts does, when it is loaded). */
export function fixIdleRequestQueueTimers(): void {
  if (applied) return;
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') throw new Error('kafkajs RequestQueue has no scheduleCheckPendingRequests: check kafkajs-request-queue.ts against the installed kafkajs');
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals): void {
    if (this.pending.length === 0 && !(this.throttledUntil > Date.now())) return;
    schedule.call(this);
  };
  applied = true;
}
