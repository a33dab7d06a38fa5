// The collab guards' rules, each tried on plain values: no ShareDB backend, no socket. The same
// rules are tried end to end, through a WebSocket, in infra/test/collab.
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@eventide/platform/auth/session.ts';
import type { AccessRecord, DocumentAccess } from './access.ts';
import { CatchUpBudget } from './catch-up-budget.ts';
import {
  ACTIONS,
  bulkRequested,
  catchUpCost,
  checkCollection,
  checkOpenDocuments,
  checkPresenceChannels,
  checkSource,
  checkSubmit,
  cursorOf,
  documentOfChannel,
  mayRead,
  milestoneDue,
} from './checks.ts';
import { clientIds } from './client-ids.ts';
import { messageChecks, type Connection, type Message } from './message-checks.ts';
import { OpLine } from './op-line.ts';
import { TEXT_TYPE_URI } from './text-ops.ts';

const ann: SessionUser = { id: 'ann', roles: [] };
const bob: SessionUser = { id: 'bob', roles: [] };
const admin: SessionUser = { id: 'root', roles: ['admin'] };

/** Ann owns "mine", which Cleo may read; Bob may do nothing with it; "fresh" does not exist yet. */
function fakeAccess(): DocumentAccess {
  const owners = new Map([['mine', 'ann']]);
  const may = (user: SessionUser, id: string) => user.roles.includes('admin') || (owners.get(id) ?? user.id) === user.id;
  return {
    record: async (id) => (owners.has(id) ? ({ owner: owners.get(id) } as unknown as AccessRecord) : undefined),
    canRead: async (user, id) => may(user, id) || (id === 'mine' && user.id === 'cleo'),
    canEdit: async (user, id) => may(user, id),
    canManage: async (user, id) => may(user, id),
    claim: async (user, id) => {
      if (owners.has(id)) return owners.get(id) === user.id;
      owners.set(id, user.id);
      return true;
    },
    setRole: async () => ({}) as AccessRecord,
    close: () => undefined,
  };
}

const refusal = (code: string) => expect.objectContaining({ code });

describe('collab checks', () => {
  it('knows only the documents collection', () => {
    expect(checkCollection('documents')).toBe('documents');
    expect(() => checkCollection('users')).toThrow(refusal('ERR_UNKNOWN_COLLECTION'));
  });

  it('lets members and admins read, and refuses others and malformed ids', async () => {
    const access = fakeAccess();
    await expect(mayRead(access, ann, 'documents', 'mine')).resolves.toBeUndefined();
    await expect(mayRead(access, admin, 'documents', 'mine')).resolves.toBeUndefined();
    await expect(mayRead(access, bob, 'documents', 'mine')).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(mayRead(access, ann, 'documents', '../etc')).rejects.toEqual(refusal('ERR_BAD_ID'));
    await expect(mayRead(access, ann, 'documents', 42)).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(mayRead(access, ann, 'other', 'mine')).rejects.toEqual(refusal('ERR_FORBIDDEN'));
  });

  it('accepts an op source issued to the same user only', () => {
    const ids = clientIds('secret');
    const own = ids.mint('ann');
    expect(() => checkSource(undefined, own, ann, ids)).not.toThrow();
    expect(() => checkSource(own, own, ann, ids)).not.toThrow();
    expect(() => checkSource(ids.mint('ann'), own, ann, ids)).not.toThrow();
    expect(() => checkSource(ids.mint('bob'), own, ann, ids)).toThrow(refusal('ERR_SPOOFED_SOURCE'));
    expect(() => checkSource('made-up', own, ann, ids)).toThrow(refusal('ERR_SPOOFED_SOURCE'));
  });

  it('bounds open documents and presence channels, counting a re-subscription once', () => {
    const open = { a: {}, b: {} };
    expect(() => checkOpenDocuments(open, ['a', 'c'], 3)).not.toThrow();
    expect(() => checkOpenDocuments(open, ['c', 'd'], 3)).toThrow(refusal('ERR_TOO_MANY_OPEN'));
    expect(() => checkPresenceChannels({ 'documents.a': {} }, 'documents.a', 1)).not.toThrow();
    expect(() => checkPresenceChannels({ 'documents.a': {} }, 'documents.b', 1)).toThrow(refusal('ERR_TOO_MANY_OPEN'));
  });

  it('reads presence channels and bulk requests', () => {
    expect(documentOfChannel('documents.mine')).toBe('mine');
    expect(documentOfChannel('users.mine')).toBeUndefined();
    expect(documentOfChannel(7)).toBeUndefined();
    expect(bulkRequested(['a', 'b'])).toEqual([
      ['a', null],
      ['b', null],
    ]);
    expect(bulkRequested({ a: 3 })).toEqual([['a', 3]]);
    expect(bulkRequested(undefined)).toEqual([]);
  });

  it('costs a catch-up the ops committed since each version, and refuses one too far behind', async () => {
    const current = async (id: string) => ({ a: 10, b: 50 })[id as 'a' | 'b'] ?? 0;
    await expect(
      catchUpCost(
        [
          ['a', 7],
          ['b', 50],
          ['a', null],
        ],
        current,
        20,
      ),
    ).resolves.toBe(3);
    await expect(catchUpCost([['b', 5]], current, 20)).rejects.toEqual(refusal('ERR_TOO_FAR_BEHIND'));
  });

  it('lets anyone create a new document, only its owner delete it, and checks the op', async () => {
    const access = fakeAccess();
    await expect(checkSubmit(access, bob, 'documents', 'fresh', { create: { type: TEXT_TYPE_URI } })).resolves.toBeUndefined();
    await expect(checkSubmit(access, ann, 'documents', 'fresh', { create: { type: TEXT_TYPE_URI } })).rejects.toEqual(
      refusal('ERR_FORBIDDEN'),
    );
    await expect(checkSubmit(access, ann, 'documents', 'fresh', { del: true })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(checkSubmit(access, bob, 'documents', 'fresh', { del: true })).resolves.toBeUndefined();
    await expect(checkSubmit(access, ann, 'documents', 'mine', { op: [{ insert: 'hi' }] })).resolves.toBeUndefined();
    await expect(checkSubmit(access, ann, 'documents', 'mine', { op: [{ bogus: 1 }] })).rejects.toEqual(refusal('ERR_BAD_OP'));
    await expect(checkSubmit(access, ann, 'documents', 'mine', { create: { type: 'json0' } })).rejects.toEqual(refusal('ERR_BAD_OP'));
  });

  it('lets a viewer read and refuses their op, saying why; a stranger is told nothing', async () => {
    const access = fakeAccess();
    const cleo: SessionUser = { id: 'cleo', roles: [] };
    await expect(mayRead(access, cleo, 'documents', 'mine')).resolves.toBeUndefined();
    await expect(checkSubmit(access, cleo, 'documents', 'mine', { op: [{ insert: 'hi' }] })).rejects.toEqual(refusal('ERR_READ_ONLY'));
    await expect(checkSubmit(access, bob, 'documents', 'mine', { op: [{ insert: 'hi' }] })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
  });

  it('keeps only index and length in a cursor, labelled with the server’s user', () => {
    expect(cursorOf({ index: 2, length: 0, user: 'someone-else', colour: 'red' }, ann)).toEqual({ index: 2, length: 0, user: 'ann' });
    expect(cursorOf({ index: 2, length: 1, idle: true }, ann)).toEqual({ index: 2, length: 1, idle: true, user: 'ann' });
    expect(cursorOf({ index: 2, length: 1, idle: false }, ann)).toEqual({ index: 2, length: 1, user: 'ann' });
    expect(() => cursorOf({ index: 2, length: 1, idle: 'yes' }, ann)).toThrow(refusal('ERR_BAD_PRESENCE'));
    expect(cursorOf(null, ann)).toBeNull();
    expect(() => cursorOf({ index: -1, length: 0 }, ann)).toThrow(refusal('ERR_BAD_PRESENCE'));
    expect(() => cursorOf({ index: 1.5, length: 0 }, ann)).toThrow(refusal('ERR_BAD_PRESENCE'));
    expect(() => cursorOf('x', ann)).toThrow(refusal('ERR_BAD_PRESENCE'));
  });

  it('saves a milestone every N ops, or when the last is old', () => {
    const every = { everyOps: 10, everySeconds: 60 };
    expect(milestoneDue(20, 1000, 900, every)).toBe(true);
    expect(milestoneDue(21, 1000, 900, every)).toBe(false);
    expect(milestoneDue(21, 61_000, 1000, every)).toBe(true);
    expect(milestoneDue(21, 1000, undefined, every)).toBe(true);
  });
});

describe('collab message checks', () => {
  const ids = clientIds('secret');
  const versions: Record<string, number> = { mine: 100 };
  const check = messageChecks({
    access: fakeAccess(),
    ids,
    maxCatchUpOps: 50,
    catchUpOpsPerMinute: 60,
    currentVersion: async (id) => versions[id] ?? 0,
  });

  function connection(user: SessionUser, open: Record<string, unknown> = {}): Connection & { claimed: Message[] } {
    const claimed: Message[] = [];
    return {
      user,
      clientId: ids.mint(user.id),
      ops: new OpLine({ perSecond: 1000, maxWaiting: 5 }),
      catchUp: new CatchUpBudget({ capacity: 50, perMinute: 60 }),
      ended: () => false,
      openDocuments: () => open,
      openPresenceChannels: () => ({}),
      claimPresence: (message) => void claimed.push(message),
      claimed,
    };
  }

  it('drops a handshake id issued to someone else, and keeps one issued to the user', async () => {
    const stolen: Message = { a: ACTIONS.handshake, id: ids.mint('bob') };
    await check(connection(ann), stolen);
    expect(stolen.id).toBeUndefined();
    const own: Message = { a: ACTIONS.handshake, id: ids.mint('ann') };
    await check(connection(ann), own);
    expect(own.id).toBeDefined();
  });

  it('lets only admins query', async () => {
    await expect(check(connection(ann), { a: ACTIONS.queryFetch, c: 'documents' })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(check(connection(admin), { a: ACTIONS.querySubscribe, c: 'documents' })).resolves.toBeUndefined();
  });

  it('checks access on fetches and subscriptions, and charges their catch-up', async () => {
    await expect(check(connection(bob), { a: ACTIONS.fetch, c: 'documents', d: 'mine' })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(check(connection(ann), { a: ACTIONS.subscribe, c: 'documents', d: 'mine', v: 10 })).rejects.toEqual(
      refusal('ERR_TOO_FAR_BEHIND'),
    );
    const editor = connection(ann);
    await check(editor, { a: ACTIONS.subscribe, c: 'documents', d: 'mine', v: 70 });
    // 30 of the budget's 50 are spent: the same history again does not fit.
    await expect(check(editor, { a: ACTIONS.fetch, c: 'documents', d: 'mine', v: 70 })).rejects.toThrow(
      /catching this connection up by 30 more ops/,
    );
    await expect(check(connection(ann, { a: {} }), { a: ACTIONS.snapshotFetch, c: 'documents', d: 'mine' })).resolves.toBeUndefined();
  });

  it('checks every document of a bulk subscription', async () => {
    await expect(check(connection(bob), { a: ACTIONS.bulkSubscribe, c: 'documents', b: { fresh: null, mine: null } })).rejects.toEqual(
      refusal('ERR_FORBIDDEN'),
    );
    await expect(check(connection(bob), { a: ACTIONS.bulkFetch, c: 'documents', b: ['fresh', 'other'] })).resolves.toBeUndefined();
  });

  it('refuses an op with someone else’s source, and lines ops up one at a time', async () => {
    const editor = connection(ann);
    await expect(check(editor, { a: ACTIONS.op, c: 'documents', d: 'mine', v: 100, src: ids.mint('bob') })).rejects.toEqual(
      refusal('ERR_SPOOFED_SOURCE'),
    );
    await check(editor, { a: ACTIONS.op, c: 'documents', d: 'mine', v: 100, src: editor.clientId });
    let second = false;
    const next = check(editor, { a: ACTIONS.op, c: 'documents', d: 'mine', v: 100 }).then(() => (second = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second, 'the second op waits until the first is answered').toBe(false);
    // The connection closes: what waits in line is refused, never let through.
    editor.ops.close();
    await expect(next).rejects.toEqual(refusal('ERR_CONNECTION_ENDED'));
  });

  it('claims presence after checking access, and checks presence channels', async () => {
    const editor = connection(ann);
    const presence: Message = { a: ACTIONS.presence, c: 'documents', d: 'mine', v: 100, id: 'p1' };
    await check(editor, presence);
    expect(editor.claimed).toEqual([presence]);
    const intruder = connection(bob);
    await expect(check(intruder, { a: ACTIONS.presence, c: 'documents', d: 'mine', v: 100, id: 'p2' })).rejects.toEqual(
      refusal('ERR_FORBIDDEN'),
    );
    expect(intruder.claimed).toEqual([]);
    await expect(check(intruder, { a: ACTIONS.presenceSubscribe, ch: 'documents.mine' })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
    await expect(check(intruder, { a: ACTIONS.presenceRequest, ch: 'users.x' })).rejects.toEqual(refusal('ERR_FORBIDDEN'));
  });

  it('leaves unsubscribes and pings to ShareDB', async () => {
    await expect(check(connection(bob), { a: ACTIONS.unsubscribe, c: 'documents', d: 'mine' })).resolves.toBeUndefined();
    await expect(check(connection(bob), { a: ACTIONS.pingPong })).resolves.toBeUndefined();
  });
});
