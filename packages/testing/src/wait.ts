// Waiting for a condition in tests: poll it, with a bound, never sleep for a guessed time.
// Not vi.waitFor: the collab clients that use this also run in `npm run bench`, outside vitest,
// and a timeout here names what was awaited rather than the last failed assertion.
// `what` may be a function, to say how things stand when the wait gives up rather than when it began.
export async function until(condition: () => boolean | Promise<boolean>, what: string | (() => string), ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
