// Groups an async stream into batches of what is already available: during catch-up a batch
// fills up to `max`; when live, each event goes out as soon as nothing else is waiting behind it.
//
// `stop` must end the source (abort its subscription). It is called when the consumer leaves
// early (a failure, a switch): a live subscription's pending read would otherwise hold the
// cleanup until the next event, possibly forever.
export async function* batches<T>(source: AsyncIterable<T>, max: number, stop: () => void): AsyncGenerator<T[]> {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined;
  const IDLE = Symbol('idle');
  try {
    for (;;) {
      const first = await (pending ?? iterator.next());
      pending = undefined;
      if (first.done) return;
      const batch = [first.value];
      while (batch.length < max) {
        pending = iterator.next();
        // Whatever does not arrive before the event loop turns belongs to the next batch.
        const next = await Promise.race([pending, new Promise<typeof IDLE>((resolve) => setImmediate(() => resolve(IDLE)))]);
        if (next === IDLE) break;
        pending = undefined;
        if (next.done) {
          yield batch;
          return;
        }
        batch.push(next.value);
      }
      yield batch;
    }
  } finally {
    stop();
    await iterator.return?.();
  }
}
