// Named versions (docs/collab.md#versions): a version someone gave a name is kept as a milestone
// snapshot that no trim lets go (history.ts), so it reads as it was however long ago it was. The
// names live in a record per document, written only by the server in a collection clients cannot
// name, as a map by version so that concurrent namings of different versions both stand.
import type ShareDB from 'sharedb';
import { MAX_NAMED_VERSIONS } from '@eventide/contract/resources/documents/versions.ts';
import type { HistoryKeeper, KeptVersions } from './history.ts';
import type { HistoryStore } from '../store/history.ts';
import { DOCUMENTS } from './access.ts';
import { forClient } from '../errors.ts';
import { charactersOf } from './text-ops.ts';

/** Server-only: the named versions of each document, under the document's id. */
export const NAMED_VERSIONS = 'collab_named_versions';

export interface NamedEntry {
  name: string;
  /** The user who named it. */
  by: string;
  /** When it was named, and when the document reached it (ms). */
  namedAt: number;
  madeAt?: number;
  /** The characters its milestone keeps, counted against the owner's quota (quotas.ts); absent on names given before it was counted. */
  characters?: number;
}
type NamedRecord = { versions: Record<string, NamedEntry> };

export type NamingRefusal = 'too-many' | 'not-kept' | 'beyond-current';
const TOO_MANY = `a document keeps at most ${MAX_NAMED_VERSIONS} named versions; take the name off one first`;
const TOO_MANY_CODE = 'ERR_TOO_MANY_NAMED_VERSIONS';

/** Why a name was not given: the handler says which field, and what to do instead. */
export class NamingRefused extends Error {
  readonly reason: NamingRefusal;
  constructor(reason: NamingRefusal, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface NamedVersions extends KeptVersions {
  /** The names, by version. */
  list(id: string): Promise<Map<number, NamedEntry>>;
  /**
   * Names `version` (a name given again replaces the old one); refuses with NamingRefused.
   * `mayKeep` is asked, with the version's characters, before a version not yet named is kept.
   */
  name(id: string, version: number, name: string, by: string, mayKeep?: (characters: number) => Promise<void>): Promise<NamedEntry>;
  /** Takes the name off `version`; false if it had none. Its milestone goes at the next trim. */
  forget(id: string, version: number): Promise<boolean>;
}

export function namedVersions(deps: {
  backend: ShareDB;
  milestones: ShareDB.MilestoneDB;
  store: HistoryStore;
  keeper: HistoryKeeper;
  clock?: () => number;
}): NamedVersions {
  const { backend, milestones, store, keeper } = deps;
  const clock = deps.clock ?? Date.now;
  // A connection of the server's own: its agent passes the guards.
  const connection = backend.connect();
  // The bound is checked again where the record is committed. A commit is atomic on the store's
  // version, and ShareDB retries one that lost against the newer record, running this again: the
  // bound then holds across processes, where the check in name() sees only this one's names.
  backend.use('commit', (context, next) => {
    if (context.collection !== NAMED_VERSIONS) return next();
    const record = (context as unknown as { snapshot: { data?: NamedRecord } }).snapshot.data;
    if (Object.keys(record?.versions ?? {}).length <= MAX_NAMED_VERSIONS) return next();
    next(Object.assign(new Error(TOO_MANY), { code: TOO_MANY_CODE }));
  });

  const read = (id: string) =>
    new Promise<NamedRecord | undefined>((resolve, reject) =>
      backend.db.getSnapshot(NAMED_VERSIONS, id, null, null, (error: Error | null, snapshot?: { type: unknown; data: NamedRecord }) =>
        error ? reject(error) : resolve(snapshot?.type ? snapshot.data : undefined),
      ),
    );

  /** Changes the record through ShareDB (json0), so that a concurrent change elsewhere is transformed, not lost. */
  async function change(id: string, op: (record: NamedRecord) => unknown[] | undefined): Promise<void> {
    const doc = connection.get(NAMED_VERSIONS, id);
    try {
      await new Promise<void>((resolve, reject) => doc.fetch((error) => (error ? reject(error) : resolve())));
      if (!doc.type) {
        await new Promise<void>((resolve, reject) =>
          doc.create({ versions: {} } satisfies NamedRecord, (error) =>
            error && (error as unknown as { code?: string }).code !== 'ERR_DOC_ALREADY_CREATED' ? reject(error) : resolve(),
          ),
        );
        if (!doc.type) await new Promise<void>((resolve, reject) => doc.fetch((error) => (error ? reject(error) : resolve())));
      }
      const ops = op(doc.data as NamedRecord);
      if (ops?.length)
        await new Promise<void>((resolve, reject) => doc.submitOp(ops as never, {}, (error) => (error ? reject(error) : resolve())));
    } finally {
      doc.destroy();
    }
  }

  const snapshotAt = (id: string, version: number) =>
    new Promise<{ v: number; type: string | null; data: unknown }>((resolve, reject) =>
      connection.fetchSnapshot(DOCUMENTS, id, version, (error, snapshot) =>
        error ? reject(error) : resolve(snapshot as unknown as { v: number; type: string | null; data: unknown }),
      ),
    );
  const currentVersion = (id: string) =>
    new Promise<number>((resolve, reject) =>
      backend.db.getSnapshot(DOCUMENTS, id, null, null, (error: Error | null, snapshot?: { v: number }) =>
        error ? reject(error) : resolve(snapshot?.v ?? 0),
      ),
    );

  async function versionsOf(id: string): Promise<number[]> {
    return Object.keys((await read(id))?.versions ?? {}).map(Number);
  }

  return {
    versionsOf,
    async list(id) {
      const record = await read(id);
      return new Map(Object.entries(record?.versions ?? {}).map(([version, entry]) => [Number(version), entry]));
    },
    name(id, version, name, by, mayKeep) {
      // No trim of this document between recording the name and saving its milestone.
      return keeper.holding(id, async () => {
        const known = await versionsOf(id);
        if (!known.includes(version) && known.length >= MAX_NAMED_VERSIONS) throw new NamingRefused('too-many', TOO_MANY);
        const current = await currentVersion(id);
        if (version > current) throw new NamingRefused('beyond-current', `the document is at version ${current}`);
        let snapshot: Awaited<ReturnType<typeof snapshotAt>>;
        try {
          snapshot = await snapshotAt(id, version);
        } catch (error) {
          // The store's own "those ops were let go" (a code of its own on MongoDB) is told as ShareDB's.
          const { told } = forClient(error as { code?: unknown; message?: unknown });
          if (told.code !== 'ERR_TOO_FAR_BEHIND') throw error;
          throw new NamingRefused('not-kept', `${String(told.message).split(':')[0]}; name a later one`);
        }
        const characters = charactersOf(snapshot);
        if (!known.includes(version)) await mayKeep?.(characters);
        const madeAt = version === 0 ? undefined : await store.reachedAt(DOCUMENTS, id, version);
        const entry: NamedEntry = { name, by, namedAt: clock(), characters, ...(madeAt === undefined ? {} : { madeAt }) };
        await new Promise<void>((resolve, reject) =>
          milestones.saveMilestoneSnapshot(
            DOCUMENTS,
            { id, v: version, type: snapshot.type, data: snapshot.data, m: madeAt === undefined ? null : { mtime: madeAt } } as never,
            (error?: Error) => (error ? reject(error) : resolve()),
          ),
        );
        await change(id, (record) => {
          const before = record.versions[String(version)];
          return [{ p: ['versions', String(version)], ...(before ? { od: before } : {}), oi: entry }];
        }).catch((error: { code?: unknown }) => {
          // Its milestone stays until the next trim, which lets it go: no name keeps it.
          throw error.code === TOO_MANY_CODE ? new NamingRefused('too-many', TOO_MANY) : error;
        });
        return entry;
      });
    },
    async forget(id, version) {
      let had = false;
      await change(id, (record) => {
        const before = record.versions[String(version)];
        had = before !== undefined;
        return before ? [{ p: ['versions', String(version)], od: before }] : undefined;
      });
      return had;
    },
    async forgetAll(id) {
      await change(id, (record) => (Object.keys(record.versions).length ? [{ p: ['versions'], od: record.versions, oi: {} }] : undefined));
    },
  };
}

/**
 * The characters the named versions of `owner`'s documents keep together: what each name recorded
 * of its milestone. One read of the names' record per document the user owns (at most
 * COLLAB_MAX_DOCUMENTS_PER_USER), so it is asked per owner now and then (quotas.ts), not per op.
 */
export async function keptCharacters(
  db: ShareDB.DB,
  members: { documentsOf(userId: string, limit: number): Promise<Array<{ id: string; role: string }>> },
  owner: string,
  limit: number,
): Promise<number> {
  const owned = (await members.documentsOf(owner, limit)).filter((m) => m.role === 'owner');
  const records = await Promise.all(
    owned.map(
      ({ id }) =>
        new Promise<NamedRecord | undefined>((resolve, reject) =>
          db.getSnapshot(NAMED_VERSIONS, id, null, null, (error: Error | null, snapshot?: { type: unknown; data: NamedRecord }) =>
            error ? reject(error) : resolve(snapshot?.type ? snapshot.data : undefined),
          ),
        ),
    ),
  );
  let characters = 0;
  for (const record of records) for (const entry of Object.values(record?.versions ?? {})) characters += entry.characters ?? 0;
  return characters;
}
