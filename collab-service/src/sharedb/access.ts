// Who may open a document, and do what in it. Each document has an access record, written only by
// the server in a ShareDB collection of its own that clients cannot name: the owner (whoever
// created the document), and the editors and viewers the owner shared it with. What each part
// allows is ROLE_MAY (contract/documents.ts). Admins may do everything an owner may.
// Records are cached briefly, because every op sent to every subscriber is checked; taking an
// editor off a document is published as a revocation, which drops the record from every
// process's cache and ends that editor's connections to it at once.
import type ShareDB from 'sharedb';
import type { SessionUser } from '@eventide/platform/auth/session.ts';
import type { RevocationFeed } from '@eventide/stores/revocations/port.ts';
import { isAdmin } from '@eventide/platform/auth/session.ts';
import { ACCESS_COLLECTION, DOCUMENTS_COLLECTION } from '../store/members.ts';

/** The one collection clients edit. */
export const DOCUMENTS = DOCUMENTS_COLLECTION;
/** Document ids: what fits in a URL path segment and a ShareDB channel name without escaping. */
export { DOCUMENT_ID } from '@eventide/contract/resources/documents/schemas.ts';
/** Server-only: access records, one per document, under the document's id. */
export const ACCESS = ACCESS_COLLECTION;

import { ROLE_MAY, roleIn, type AccessRecord, type DocumentRole, type SharedRole } from '@eventide/contract/resources/documents/schemas.ts';

export { roleIn };
export type { AccessRecord };

export interface DocumentAccess {
  /** The record, or undefined for a document nobody has created yet. */
  record(id: string): Promise<AccessRecord | undefined>;
  /** Read, subscribe, see and show presence: admins and every member; anyone for a document that does not exist yet. */
  canRead(user: SessionUser, id: string): Promise<boolean>;
  /** Change the text: admins, the owner, editors; anyone for a document that does not exist yet. */
  canEdit(user: SessionUser, id: string): Promise<boolean>;
  /** Delete the document, share it, unshare it: admins and the owner. */
  canManage(user: SessionUser, id: string): Promise<boolean>;
  /** Before a create: records the creator as owner (with the title, if given) unless the document already has one. */
  claim(user: SessionUser, id: string, title?: string): Promise<boolean>;
  /** Gives `userId` a part (editor or viewer), moving them from the other, or none (undefined): they lose access. */
  setRole(id: string, userId: string, role: SharedRole | undefined): Promise<AccessRecord>;
  close(): void;
}

const CACHE_MS = 2_000;

/** Whoever has a part: who may open a document (admins too). */
export const isMember = (record: AccessRecord, userId: string) => roleIn(record, userId) !== undefined;

/** Whether the user may do `what` in the document: admins anything; nobody owns a document not created yet, so anyone may. */
function may(record: AccessRecord | undefined, user: SessionUser, what: 'read' | 'edit' | 'manage'): boolean {
  if (isAdmin(user)) return true;
  if (!record) return what !== 'manage';
  const role = roleIn(record, user.id);
  return role !== undefined && ROLE_MAY[role][what];
}

export function documentAccess(
  backend: ShareDB,
  revocations: RevocationFeed,
  options: { clock?: () => number; mayOwnAnother?: (owner: string, by: SessionUser) => Promise<void> } = {},
): DocumentAccess {
  const clock = options.clock ?? Date.now;
  const cache = new Map<string, { record: AccessRecord | undefined; until: number }>();
  const stopListening = revocations.subscribe((revocation) => {
    if (revocation.type === 'document-access' || revocation.type === 'document-role') cache.delete(revocation.document);
  });
  // A connection of the server's own: its agent is trusted by the guards (see guard.ts).
  const connection = backend.connect();

  const read = (id: string) =>
    new Promise<AccessRecord | undefined>((resolve, reject) =>
      backend.db.getSnapshot(ACCESS, id, null, null, (error: Error | null, snapshot?: { type: unknown; data: AccessRecord }) =>
        error ? reject(error) : resolve(snapshot?.type ? snapshot.data : undefined),
      ),
    );

  async function record(id: string): Promise<AccessRecord | undefined> {
    const cached = cache.get(id);
    if (cached && cached.until > clock()) return cached.record;
    const fresh = await read(id);
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { record: fresh, until: clock() + CACHE_MS });
    return fresh;
  }

  /** Runs a change on the record through ShareDB, so that concurrent changes are transformed, not lost. */
  async function change(id: string, apply: (doc: ReturnType<typeof connection.get>) => Promise<void>): Promise<AccessRecord | undefined> {
    const doc = connection.get(ACCESS, id);
    try {
      await new Promise<void>((resolve, reject) => doc.fetch((error) => (error ? reject(error) : resolve())));
      await apply(doc);
      return doc.type ? (structuredClone(doc.data) as AccessRecord) : undefined;
    } finally {
      cache.delete(id);
      doc.destroy();
    }
  }

  /** Runs `work` after every earlier one of the same key has ended. */
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const done = (queues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = done.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => queues.get(key) === settled && queues.delete(key));
    return done;
  }

  const submit = (doc: ReturnType<typeof connection.get>, op: unknown) =>
    new Promise<void>((resolve, reject) => doc.submitOp(op as never, {}, (error) => (error ? reject(error) : resolve())));

  return {
    record,
    canRead: async (user, id) => isAdmin(user) || may(await record(id), user, 'read'),
    canEdit: async (user, id) => isAdmin(user) || may(await record(id), user, 'edit'),
    canManage: async (user, id) => isAdmin(user) || may(await record(id), user, 'manage'),
    async claim(user, id, title) {
      const existing = await record(id);
      if (existing) return isAdmin(user) || isMember(existing, user.id);
      // Every way a document comes into being passes here, one at a time per user in this process,
      // so that the quota on documents owned holds for all of them, however many ask at once.
      const after = await oneAtATime(user.id, async () => {
        await options.mayOwnAnother?.(user.id, user);
        return change(id, async (doc) => {
          if (doc.type) return;
          await new Promise<void>((resolve, reject) =>
            doc.create({ owner: user.id, editors: [], ...(title === undefined ? {} : { title }) } satisfies AccessRecord, (error) =>
              // Another creator won the race: their record stands, and decides below.
              error && (error as unknown as { code?: string }).code !== 'ERR_DOC_ALREADY_CREATED' ? reject(error) : resolve(),
            ),
          );
        });
      });
      return isAdmin(user) || (after !== undefined && isMember(after, user.id));
    },
    async setRole(id, userId, role) {
      let before: DocumentRole | undefined;
      const after = await change(id, async (doc) => {
        if (!doc.type) throw new Error(`document ${id} has no access record`);
        const current = doc.data as AccessRecord;
        before = roleIn(current, userId);
        if (before === 'owner' || before === role) return;
        // Off the list they are on, then onto the other (a record made before viewers gets the list).
        if (before === 'editor') await submit(doc, [{ p: ['editors', current.editors.indexOf(userId)], ld: userId }]);
        if (before === 'viewer') await submit(doc, [{ p: ['viewers', current.viewers!.indexOf(userId)], ld: userId }]);
        if (role === 'editor') await submit(doc, [{ p: ['editors', current.editors.length], li: userId }]);
        if (role === 'viewer') {
          if (current.viewers) await submit(doc, [{ p: ['viewers', current.viewers.length], li: userId }]);
          else await submit(doc, [{ p: ['viewers'], oi: [userId] }]);
        }
      });
      // Every process forgets what it knew: a viewer's next op is refused everywhere, and someone
      // with no part left loses their open connections to the document at once.
      if (before !== role && before !== 'owner') {
        if (role === undefined) await revocations.publish({ type: 'document-access', document: id, userId });
        else await revocations.publish({ type: 'document-role', document: id, userId });
      }
      return after!;
    },
    close: stopListening,
  };
}
