// Waiting for a condition in tests: poll it, with a bound, never sleep for a guessed time.
// Not vi.waitFor: the collab clients that use this also run in `npm run bench`, outside vitest,
// and a timeout here names what was awaited rather than the last failed assertion.
// `what` may be a function, to say how things stand when the wait gives up rather than when it began.

/**
 * How long a process, a server or a peer (nginx, Redis, the mock Kafka) may take to become ready
 * before a test fails: a bound for a machine ten times slower than a quiet one (the slowest start
 * there is a few seconds), not a deadline. A start that passes never comes near it.
 */
export const START_BOUND_MS = 90_000;

/**
 * The bound of a wait that names none (and of vitest's expect.poll): as generous, for the same
 * reason, and shorter than a test's own bound (vitest.config.ts), so that the wait's message,
 * naming what it waited for, is the one that fails the test.
 */
export const WAIT_BOUND_MS = 90_000;

export async function until(condition: () => boolean | Promise<boolean>, what: string | (() => string), ms = WAIT_BOUND_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
