// A user's documents as the web app shows them: the ones they own, edit or view, new ones with a title,
// the people on each (by the names they chose), and finding the person to share with. Emails are
// never shown: sharing by email names someone the caller already knows the address of; sharing by
// name looks only among the people the caller already shares a document with, so nobody can list
// the users by name.
import { randomBytes } from 'node:crypto';
import richText from 'rich-text';
import type ShareDB from 'sharedb';
import type { DocumentPeople, DocumentSummary, Person, ShareWith } from '@eventide/contract/resources/documents/schemas.ts';
import type { SessionUser } from '@eventide/platform/auth/session.ts';
import { problems } from '@eventide/contract/problems.ts';
import { documentTimes, type SnapshotMeta } from './documents.ts';
import { DOCUMENTS, roleIn, type AccessRecord, type DocumentAccess } from './sharedb/access.ts';
import { CollabError } from './errors.ts';
import type { MemberIndex } from './store/members.ts';

/** The most documents one list answers; a user on more sees 500 of them (by id), not the 500 changed last. */
export const MAX_LISTED = 500;

/** What the library needs to know about users: the read models, through the platform's read store. */
export interface UserDirectory {
  /** The name an account chose; null once deleted; undefined if there never was one. */
  nameOf(userId: string): Promise<string | null | undefined>;
  idByEmail(email: string): Promise<string | undefined>;
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

export function documentLibrary(deps: { backend: ShareDB; access: DocumentAccess; members: MemberIndex; users: UserDirectory }) {
  const { backend, access, members, users } = deps;
  const connection = backend.connect();

  const person = async (userId: string): Promise<Person> => ({ userId, name: (await users.nameOf(userId)) ?? null });

  const snapshots = (ids: string[]) =>
    new Promise<Record<string, SnapshotMeta>>((resolve, reject) =>
      backend.db.getSnapshotBulk(DOCUMENTS, ids, null, { metadata: true }, (error: Error | null, found: Record<string, SnapshotMeta>) =>
        error ? reject(error) : resolve(found),
      ),
    );

  async function summarise(id: string, record: AccessRecord, snapshot: SnapshotMeta | undefined, caller: string): Promise<DocumentSummary> {
    return {
      id,
      title: record.title ?? id,
      // An admin opening someone's document has no part in it: they act as its owner may.
      role: roleIn(record, caller) ?? 'owner',
      owner: await person(record.owner),
      version: snapshot?.v ?? 0,
      ...documentTimes(snapshot),
    };
  }

  /** The user's documents' access records, by id. */
  async function recordsOf(userId: string): Promise<Map<string, AccessRecord>> {
    const found = await members.documentsOf(userId, MAX_LISTED);
    const records = await Promise.all(found.map(async ({ id }) => [id, await access.record(id)] as const));
    return new Map(records.filter((entry): entry is readonly [string, AccessRecord] => entry[1] !== undefined));
  }

  return {
    /** Someone by the name they chose (null once their account is deleted). */
    person,
    /** What the user owns or edits, the most recently changed first. */
    async list(user: SessionUser): Promise<DocumentSummary[]> {
      const records = await recordsOf(user.id);
      const metas = await snapshots([...records.keys()]);
      const items = await Promise.all([...records].map(([id, record]) => summarise(id, record, metas[id], user.id)));
      const changed = (item: DocumentSummary) => item.modifiedAt ?? item.createdAt ?? '';
      return items.sort((a, b) => changed(b).localeCompare(changed(a)) || a.title.localeCompare(b.title));
    },

    /** A new, empty document owned by the user, under an id nobody can guess. */
    async create(user: SessionUser, title: string): Promise<DocumentSummary> {
      const id = randomBytes(12).toString('base64url');
      try {
        await access.claim(user, id, title);
      } catch (error) {
        if (error instanceof CollabError && error.code === 'ERR_QUOTA') throw problems.quotaReached(error.message);
        throw error;
      }
      const doc = connection.get(DOCUMENTS, id);
      try {
        await new Promise<void>((resolve, reject) => doc.create([], richText.type.uri, (error) => (error ? reject(error) : resolve())));
      } finally {
        doc.destroy();
      }
      return summarise(id, (await access.record(id))!, (await snapshots([id]))[id], user.id);
    },

    async people(id: string): Promise<DocumentPeople> {
      const record = (await access.record(id))!;
      return {
        owner: await person(record.owner),
        editors: await Promise.all(record.editors.map(person)),
        viewers: await Promise.all((record.viewers ?? []).map(person)),
      };
    },

    /** The account to share with, or a refusal that names the field and says what to do instead. */
    async findPerson(user: SessionUser, target: ShareWith): Promise<string> {
      if (target.email !== undefined) {
        const found = await users.idByEmail(target.email);
        if (!found) throw problems.unprocessable('email', 'no account has this email; they can sign up and you share it then');
        return found;
      }
      const name = target.name!;
      const known = new Set<string>();
      for (const record of (await recordsOf(user.id)).values())
        for (const id of [record.owner, ...record.editors, ...(record.viewers ?? [])]) known.add(id);
      known.delete(user.id);
      const named = await Promise.all([...known].map(async (id) => ({ id, name: await users.nameOf(id) })));
      const matches = named.filter((p) => p.name && sameName(p.name, name));
      if (matches.length === 0) {
        throw problems.unprocessable('name', 'nobody you share a document with has this name; share by email the first time');
      }
      if (matches.length > 1) {
        throw problems.unprocessable('name', `${matches.length} people you share documents with have this name; share by email instead`);
      }
      return matches[0]!.id;
    },
  };
}

export type DocumentLibrary = ReturnType<typeof documentLibrary>;
