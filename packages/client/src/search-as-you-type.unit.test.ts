// The spec's search rules (§8), each on vitest's fake clock with a transport the test answers by
// hand: the wait, the minimum, one request per query in flight, aborting the superseded, late
// answers, and a 429.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProblem } from './problem.ts';
import { searchAsYouType, type SearchState } from './search-as-you-type.ts';

interface Call {
  query: string;
  signal: AbortSignal;
  answer(results: string[]): void;
  fail(error: unknown): void;
}

function harness() {
  const calls: Call[] = [];
  const states: Array<SearchState<string[]>> = [];
  const search = searchAsYouType<string[]>({
    // Deliberately deaf to the signal: a server may answer an aborted request anyway.
    search: (query, signal) => new Promise((resolve, reject) => calls.push({ query, signal, answer: resolve, fail: reject })),
    onChange: (state) => void states.push(state),
  });
  const last = () => states.at(-1)!;
  /** Types the text one character at a time, `gapMs` apart. */
  const type = async (text: string, gapMs = 50) => {
    for (let i = 1; i <= text.length; i++) {
      search.input(text.slice(0, i));
      await vi.advanceTimersByTimeAsync(gapMs);
    }
  };
  return { calls, states, last, type, search };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('search as you type', () => {
  it('asks 300 ms after the last keystroke, once, for what was typed by then', async () => {
    const { calls, type, search } = harness();
    await type('kettle', 100);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.query)).toEqual(['kettle']);
    search.dispose();
  });

  it('never asks for a query of 2 characters or fewer, and clears what was shown', async () => {
    const { calls, last, search } = harness();
    search.input('ke');
    await vi.advanceTimersByTimeAsync(1000);
    search.input('  é😀 ');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
    expect(last()).toEqual({ status: 'idle', query: 'é😀' });
    search.input('ket');
    await vi.advanceTimersByTimeAsync(300);
    expect(calls.map((c) => c.query)).toEqual(['ket']);
    search.input('ke');
    expect(calls[0]!.signal.aborted, 'shortening below the minimum drops the request').toBe(true);
    expect(last().status).toBe('idle');
    search.dispose();
  });

  it('does not send a query again while it is in flight: its answer serves', async () => {
    const { calls, last, search } = harness();
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    search.input('kettles');
    await vi.advanceTimersByTimeAsync(100);
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.query)).toEqual(['kettle']);
    calls[0]!.answer(['Electric kettle']);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toEqual({ status: 'done', query: 'kettle', results: ['Electric kettle'], resultsFor: 'kettle' });
    search.dispose();
  });

  it('shows an answer that comes while a newer query waits, as results for the older one', async () => {
    const { calls, last, search } = harness();
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    search.input('kettles');
    calls[0]!.answer(['Electric kettle']);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toEqual({ status: 'waiting', query: 'kettles', results: ['Electric kettle'], resultsFor: 'kettle' });
    await vi.advanceTimersByTimeAsync(300);
    expect(calls.map((c) => c.query)).toEqual(['kettle', 'kettles']);
    search.dispose();
  });

  it('aborts a request superseded by a newer query', async () => {
    const { calls, search } = harness();
    search.input('kett');
    await vi.advanceTimersByTimeAsync(300);
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    expect(calls.map((c) => c.query)).toEqual(['kett', 'kettle']);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.aborted).toBe(false);
    search.dispose();
  });

  it('never lets a late answer to an old query replace a newer one', async () => {
    const { calls, states, last, search } = harness();
    search.input('kett');
    await vi.advanceTimersByTimeAsync(300);
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    calls[1]!.answer(['Electric kettle']);
    await vi.advanceTimersByTimeAsync(0);
    calls[0]!.answer(['Kettlebell', 'Electric kettle']);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ status: 'done', resultsFor: 'kettle', results: ['Electric kettle'] });
    expect(states.some((s) => 'resultsFor' in s && s.resultsFor === 'kett')).toBe(false);
    search.dispose();
  });

  it('keeps track of the request in flight when an old one answers late', async () => {
    const { calls, search } = harness();
    search.input('kett');
    await vi.advanceTimersByTimeAsync(300);
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    calls[0]!.answer(['Kettlebell']);
    await vi.advanceTimersByTimeAsync(0);
    // Back to the query in flight: still no second request for it.
    search.input('kettles');
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.query)).toEqual(['kett', 'kettle']);
    search.dispose();
  });

  it('shows a 429 and sends nothing until Retry-After has passed, then the latest query once', async () => {
    const { calls, last, search } = harness();
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    calls[0]!.fail(new ApiProblem({ type: 'rate-limited', title: 'Too many requests', status: 429, detail: 'slow down' }, 2000));
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ status: 'error', problem: { status: 429 }, retryAt: Date.now() + 2000 });
    // Typing on, and waiting past the usual 300 ms each time, sends nothing while limited.
    for (const text of ['kettles', 'kettle b', 'kettle bl', 'kettle blue']) {
      search.input(text);
      await vi.advanceTimersByTimeAsync(400);
    }
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(calls.map((c) => c.query)).toEqual(['kettle', 'kettle blue']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(2);
    search.dispose();
  });

  it('shows any other failure for the query still wanted, and forgets one no longer wanted', async () => {
    const { calls, last, search } = harness();
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    calls[0]!.fail(new TypeError('fetch failed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ status: 'error', query: 'kettle', problem: { status: 0, detail: 'fetch failed' } });
    search.input('teapot');
    await vi.advanceTimersByTimeAsync(300);
    search.input('teapots');
    calls[1]!.fail(new ApiProblem({ type: 'unavailable', title: 'Unavailable', status: 503, detail: 'later' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(last(), 'the newer query still waits its turn').toMatchObject({ status: 'waiting', query: 'teapots' });
    search.dispose();
  });

  it('reports nothing and aborts what is in flight once disposed', async () => {
    const { calls, states, search } = harness();
    search.input('kettle');
    await vi.advanceTimersByTimeAsync(300);
    const reported = states.length;
    search.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.answer(['late']);
    search.input('teapot');
    await vi.advanceTimersByTimeAsync(1000);
    expect(states).toHaveLength(reported);
    expect(calls).toHaveLength(1);
  });
});
