import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopIdleRequestQueueLoop } from './kafkajs-idle-loop.ts';

const require = createRequire(import.meta.url);

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  push(request: { entry: object; expectResponse: boolean; sendRequest: () => void }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
  checkPendingRequests(): void;
  destroy(): void;
}
type QueueClass = new (options: object) => Queue;

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** kafkajs's own request queue, one request in flight at most (as our producer runs it). */
function queue(): { queue: Queue; sent: number[] } {
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as QueueClass;
  const made = new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'b:1',
    logger: silent,
  });
  const sent: number[] = [];
  return { queue: made, sent };
}

function push(q: Queue, sent: number[], correlationId: number): void {
  const entry = { correlationId, apiKey: 0, apiName: 'Produce', apiVersion: 0, resolve() {}, reject() {} };
  q.push({ entry, expectResponse: true, sendRequest: () => sent.push(correlationId) });
}

describe("kafkajs's request queue", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a release the replacement is made for, so the replacement is in place', () => {
    expect(stopIdleRequestQueueLoop()).toBe(true);
  });

  it('checks nothing once no request waits: no timer is left running after the last response', () => {
    stopIdleRequestQueueLoop();
    vi.useFakeTimers();
    const { queue: q, sent } = queue();
    const checks = vi.spyOn(q, 'checkPendingRequests');
    push(q, sent, 1);
    push(q, sent, 2); // waits: one request in flight at most
    expect(sent).toEqual([1]);
    q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(sent).toEqual([1, 2]);
    q.fulfillRequest({ correlationId: 2, payload: Buffer.alloc(0), size: 0 });
    vi.advanceTimersByTime(1_000);
    // The check push() scheduled for the waiting request ran once; nothing runs after it.
    expect(checks.mock.calls.length).toBeLessThanOrEqual(3);
    expect(q.throttleCheckTimeoutId).toBeFalsy();
    expect(vi.getTimerCount()).toBe(0);
    q.destroy();
  });

  it('still sends a request that waits out client-side throttling, when the throttling ends', () => {
    stopIdleRequestQueueLoop();
    vi.useFakeTimers();
    const { queue: q, sent } = queue();
    q.maybeThrottle(500);
    push(q, sent, 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(499);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([1]);
    q.destroy();
  });
});
