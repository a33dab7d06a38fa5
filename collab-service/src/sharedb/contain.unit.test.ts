// A middleware hook that throws, or whose promise rejects, fails its own request only: the client
// is told ERR_INTERNAL, the stack is logged, and the backend goes on answering.
import ShareDB from 'sharedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturedLog } from '@eventide/testing/captured-log.ts';
import { containMiddleware } from './contain.ts';

let backend: ShareDB;
let log: ReturnType<typeof capturedLog>;
beforeEach(() => {
  // ShareDB's client side prints the errors its docs meet; here they are the point.
  ShareDB.logger.setMethods({ info: () => undefined, warn: () => undefined, error: () => undefined });
  log = capturedLog();
  backend = new ShareDB();
  containMiddleware(backend, log.log);
});
afterEach(() => new Promise<void>((resolve) => backend.close(() => resolve())));

/** Submits a create through a connection of this process, as any client's would arrive. */
function create(id: string): Promise<{ code?: string } | undefined> {
  const doc = backend.connect().get('docs', id);
  return new Promise((resolve) => doc.create({ n: 1 }, (error) => resolve(error as unknown as { code?: string } | undefined)));
}

describe('containMiddleware', () => {
  it('answers a request whose hook throws with ERR_INTERNAL, and the next request still goes through', async () => {
    backend.use('submit', (context, next) => {
      if (context.id === 'bad') throw new TypeError('components is not iterable');
      next();
    });
    expect(await create('bad')).toMatchObject({ code: 'ERR_INTERNAL' });
    expect(await create('good')).toBeUndefined();
    expect(log.lines).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/hook failed; the client was told ERR_INTERNAL/), err: expect.anything() }),
    ]);
  });

  it('answers a request whose hook rejects as it would one that throws', async () => {
    backend.use('submit', async (context, next) => {
      await Promise.resolve();
      if (context.id === 'bad') throw new Error('the store went away');
      next();
    });
    expect(await create('bad')).toMatchObject({ code: 'ERR_INTERNAL' });
    expect(await create('good')).toBeUndefined();
  });

  it('passes a request on once, however often a hook calls next, and logs a throw after it passed', async () => {
    let applied = 0;
    backend.use('submit', (_context, next) => {
      next();
      next();
      throw new Error('after the fact');
    });
    backend.use('afterWrite', (_context, next) => {
      applied++;
      next();
    });
    expect(await create('once')).toBeUndefined();
    expect(applied).toBe(1);
    expect(log.lines).toEqual([expect.objectContaining({ msg: expect.stringMatching(/failed after passing its request on/) })]);
  });
});
