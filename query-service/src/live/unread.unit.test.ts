import { describe, expect, it } from 'vitest';
import { UnreadLedger } from './unread.ts';

/** A stream that holds what the test says, and knows whether it was cut. */
function stream(ledger: UnreadLedger) {
  const state = { holds: 0, cut: false };
  const part = ledger.join(
    () => state.holds,
    () => {
      state.cut = true;
    },
  );
  return {
    state,
    write(bytes: number) {
      state.holds += bytes;
      part.written();
    },
    read(bytes: number) {
      state.holds -= bytes;
    },
    leave: part.leave,
  };
}

describe('what live streams hold unread, together', () => {
  it('cuts the stream that holds the most once all hold more than the bound, and only that one', () => {
    const ledger = new UnreadLedger(1000);
    const a = stream(ledger);
    const b = stream(ledger);
    const c = stream(ledger);
    a.write(300);
    b.write(500);
    c.write(150);
    expect(ledger.held).toBe(950);
    c.write(100);
    expect([a.state.cut, b.state.cut, c.state.cut]).toEqual([false, true, false]);
    expect(ledger.held).toBe(550);
  });

  it('counts what clients read since their last write before it cuts anyone', () => {
    const ledger = new UnreadLedger(1000);
    const reader = stream(ledger);
    const other = stream(ledger);
    reader.write(900);
    reader.read(900);
    other.write(200);
    expect(reader.state.cut || other.state.cut).toBe(false);
    expect(ledger.held).toBe(200);
  });

  it('forgets a stream that ended', () => {
    const ledger = new UnreadLedger(1000);
    const gone = stream(ledger);
    gone.write(800);
    gone.leave();
    const next = stream(ledger);
    next.write(900);
    expect(next.state.cut).toBe(false);
    expect(ledger.held).toBe(900);
  });
});
