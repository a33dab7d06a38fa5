import { describe, expect, it } from 'vitest';
import { collabErrors, forClient, replyForClient, type ReplyError } from './errors.ts';

const UNAVAILABLE = { code: 'ERR_UNAVAILABLE', message: expect.stringContaining('try again') };

describe('what a client is told of an error', () => {
  it("tells ShareDB's own errors, this service's and the Mongo adapter's refusals as they are", () => {
    for (const error of [
      { code: 'ERR_DOC_ALREADY_CREATED', message: 'Invalid op submitted. Document already created' },
      collabErrors.forbidden('opening this document'),
      { code: 4107, message: 'Malformed query operator: $foo' },
    ]) {
      expect(forClient(error)).toEqual({ told: { code: error.code, message: error.message } });
    }
  });

  it("tells a store's or a driver's failure only as ERR_UNAVAILABLE, and hands it over for the log", () => {
    for (const error of [
      { code: 'ERR_SQLITE_ERROR', message: 'no such table: sharedb_snapshots' },
      { code: undefined, message: 'connection <monitor> to 10.0.0.7:27017 closed' },
      { message: 'missing ops for documents/notes between 3 and 9' },
    ]) {
      expect(forClient(error)).toEqual({ told: UNAVAILABLE, hidden: error });
    }
  });

  it("tells the Mongo adapter's missing ops as history let go: the client reloads", () => {
    const told = forClient({ code: 5103, message: 'Missing ops from requested version documents.notes 4' });
    expect(told).toEqual({ told: { code: 'ERR_TOO_FAR_BEHIND', message: expect.stringContaining('subscribe again without a version') } });
  });

  it('answers each document of a bulk fetch for itself', () => {
    const hidden: ReplyError[] = [];
    const reply = replyForClient(
      {
        a: 'bf',
        c: 'documents',
        data: {
          mine: { v: 3, data: { ops: [] } },
          broken: { error: { code: 'ERR_SQLITE_ERROR', message: 'disk I/O error: /data/collab.db' } },
          theirs: { error: { code: 'ERR_FORBIDDEN', message: 'not allowed: opening this document' } },
        },
      },
      (error) => hidden.push(error),
    );
    expect(reply).toEqual({
      a: 'bf',
      c: 'documents',
      data: {
        mine: { v: 3, data: { ops: [] } },
        broken: { error: UNAVAILABLE },
        theirs: { error: { code: 'ERR_FORBIDDEN', message: 'not allowed: opening this document' } },
      },
    });
    expect(hidden).toEqual([{ code: 'ERR_SQLITE_ERROR', message: 'disk I/O error: /data/collab.db' }]);
  });

  it('passes a reply without an error through untouched', () => {
    const op = { a: 'op', c: 'documents', d: 'notes', v: 4, op: [{ insert: 'hi' }] };
    expect(replyForClient(op, () => expect.unreachable())).toBe(op);
  });
});
