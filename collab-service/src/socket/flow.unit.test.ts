// The per-connection bounds of the collab socket, on an injected clock: how fast messages are
// read (Inflow), and which outgoing ops are repeats (SentOps).
import { describe, expect, it } from 'vitest';
import { Inflow } from './inflow.ts';
import { SentOps } from './sent-ops.ts';

function pausable() {
  const log: string[] = [];
  return { log, socket: { pause: () => log.push('pause'), resume: () => log.push('resume') } };
}

describe('Inflow', () => {
  it('pauses reading once a second’s worth of messages has been read, and resumes as the rate allows', () => {
    let now = 0;
    const { log, socket } = pausable();
    const inflow = new Inflow(socket, { perSecond: 3, maxInFlight: 100, clock: () => now });
    const done = [inflow.admit(), inflow.admit()];
    expect(log).toEqual([]);
    done.push(inflow.admit());
    expect(log).toEqual(['pause']);
    now = 400; // 1.2 tokens back: the next message one handled later resumes reading
    done[0]!();
    expect(log).toEqual(['pause', 'resume']);
    inflow.close();
  });

  it('pauses while too many messages are being handled, whatever the rate', () => {
    const { log, socket } = pausable();
    const inflow = new Inflow(socket, { perSecond: 1000, maxInFlight: 2, clock: () => 0 });
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
