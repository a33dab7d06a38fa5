// The per-connection bounds of the collab socket: how fast messages are read (Inflow, on
// vitest's fake clock: rate-limiter-flexible reads Date.now), and which outgoing ops are repeats
// (SentOps).
import { describe, expect, it, vi } from 'vitest';
import { Inflow } from './inflow.ts';
import { SentOps } from './sent-ops.ts';

function pausable() {
  const log: string[] = [];
  return { log, socket: { pause: () => log.push('pause'), resume: () => log.push('resume') } };
}

describe('Inflow', () => {
  it('pauses reading once a message goes over the second’s rate, and resumes when the second ends', async () => {
    vi.useFakeTimers();
    try {
      const { log, socket } = pausable();
      const inflow = new Inflow(socket, { perSecond: 3, maxInFlight: 100 });
      const done = [inflow.admit(), inflow.admit(), inflow.admit()];
      await vi.advanceTimersByTimeAsync(0);
      expect(log).toEqual([]);
      done.push(inflow.admit());
      await vi.advanceTimersByTimeAsync(0);
      expect(log).toEqual(['pause']);
      for (const finish of done) finish();
      await vi.advanceTimersByTimeAsync(998);
      expect(log, 'handled, but the second is not over').toEqual(['pause']);
      await vi.advanceTimersByTimeAsync(2);
      expect(log).toEqual(['pause', 'resume']);
      inflow.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('pauses while too many messages are being handled, whatever the rate', () => {
    const { log, socket } = pausable();
    const inflow = new Inflow(socket, { perSecond: 1000, maxInFlight: 2 });
    const first = inflow.admit();
    inflow.admit();
    expect(log).toEqual(['pause']);
    first();
    first(); // a second call changes nothing
    expect(log).toEqual(['pause', 'resume']);
    inflow.close();
  });
});

describe('SentOps', () => {
  const op = (v: number, d = 'doc') => ({ a: 'op', c: 'documents', d, v, op: [{ insert: 'x' }] });

  it('drops an op already sent on the connection, never an ack or an error', () => {
    const sent = new SentOps();
    expect(sent.isRepeat(op(1))).toBe(false);
    expect(sent.isRepeat(op(2))).toBe(false);
    expect(sent.isRepeat(op(1))).toBe(true);
    expect(sent.isRepeat(op(2))).toBe(true);
    expect(sent.isRepeat({ a: 'op', c: 'documents', d: 'doc', v: 1, src: 'me', seq: 4 })).toBe(false);
    expect(sent.isRepeat({ ...op(1), error: { code: 'X' } })).toBe(false);
    expect(sent.isRepeat(op(1, 'other'))).toBe(false);
  });

  it('sends again what the client asks for from a version', () => {
    const sent = new SentOps();
    for (let v = 0; v < 5; v++) sent.isRepeat(op(v));
    sent.asked('documents', 'doc', 2);
    expect(sent.isRepeat(op(2))).toBe(false);
    expect(sent.isRepeat(op(3))).toBe(false);
    expect(sent.isRepeat(op(3))).toBe(true);
  });
});
