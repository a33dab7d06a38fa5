// The guards' rules as small named checks over plain values: guard.ts hooks them into ShareDB's
// middleware, and checks.unit.test.ts tries each without a socket. Each throws a CollabError to
// refuse (errors.ts; the codes are listed in docs/collab.md).
import ShareDB from 'sharedb';
import type { SessionUser } from '@eventide/platform/auth/session.ts';
import { DOCUMENT_ID, DOCUMENTS, type DocumentAccess } from './access.ts';
import type { ClientIds } from './client-ids.ts';
import { CollabError, collabErrors } from '../errors.ts';
import { checkTextOp } from './text-ops.ts';

/** ShareDB's names for what a client asks (`a` in its messages), from ShareDB itself. */
export const ACTIONS = ShareDB.MESSAGE_ACTIONS;

/** Documents (and their presence channels) one connection may have subscribed at once. */
export const MAX_OPEN_DOCUMENTS = 100;

export type TextOp = Parameters<typeof checkTextOp>[0];

/** Only the documents collection exists. */
export function checkCollection(collection: unknown): string {
  if (collection !== DOCUMENTS) throw collabErrors.unknownCollection(collection);
  return collection;
}

export function checkDocumentId(id: string): void {
  if (!DOCUMENT_ID.test(id)) throw collabErrors.badId(id);
}

/** Reading, subscribing and presence need read access: a part in the document (access.ts). */
export async function mayRead(access: DocumentAccess, user: SessionUser, collection: string, id: unknown): Promise<void> {
  if (collection !== DOCUMENTS || typeof id !== 'string') throw collabErrors.forbidden(`document ${String(id)}`);
  checkDocumentId(id);
  if (!(await access.canRead(user, id))) throw collabErrors.forbidden(`document ${id}`);
}

/** An op's `src` names the client that made it: this connection's own id or another issued to the same user. */
export function checkSource(src: unknown, ownClientId: string, user: SessionUser, ids: ClientIds): void {
  if (src != null && src !== ownClientId && !ids.belongsTo(src, user.id)) throw collabErrors.spoofedSource();
}

/** Refuses subscriptions beyond `max` documents: each holds a stream on the server. */
export function checkOpenDocuments(open: Record<string, unknown>, requested: string[], max = MAX_OPEN_DOCUMENTS): void {
  const fresh = new Set(requested.filter((id) => open[id] === undefined));
  if (Object.keys(open).length + fresh.size > max) throw collabErrors.tooManyOpen(max);
}

/** The same bound for presence channels. */
export function checkPresenceChannels(subscribed: Record<string, unknown>, channel: unknown, max = MAX_OPEN_DOCUMENTS): void {
  if (subscribed[channel as string] === undefined && Object.keys(subscribed).length >= max) throw collabErrors.tooManyOpen(max);
}

/** Doc presence channels are `<collection>.<id>`; only documents' channels exist here. */
export function documentOfChannel(channel: unknown): string | undefined {
  if (typeof channel !== 'string' || !channel.startsWith(`${DOCUMENTS}.`)) return undefined;
  return channel.slice(DOCUMENTS.length + 1);
}

/** A bulk request's documents: `b` is a list of ids (fetch) or ids with their versions (subscribe). */
export function bulkRequested(b: unknown): Array<readonly [string, unknown]> {
  if (Array.isArray(b)) return b.map((id) => [id as string, null] as const);
  return Object.entries(b ?? {});
}

/**
 * How many ops catching the client up from these versions costs; refuses a single document
 * further behind than `maxCatchUpOps` (the client should reload it instead).
 */
export async function catchUpCost(
  requested: Array<readonly [string, unknown]>,
  currentVersion: (id: string) => Promise<number>,
  maxCatchUpOps: number,
): Promise<number> {
  let total = 0;
  for (const [id, version] of requested) {
    if (typeof version !== 'number') continue;
    const behind = Math.max(0, (await currentVersion(id)) - version);
    if (behind > maxCatchUpOps) throw collabErrors.tooFarBehind(behind, maxCatchUpOps);
    total += behind;
  }
  return total;
}

/** Creating claims the document, deleting needs its owner or an admin, anything else edit access. */
export async function checkSubmit(access: DocumentAccess, user: SessionUser, collection: string, id: string, op: TextOp): Promise<void> {
  checkCollection(collection);
  checkDocumentId(id);
  checkTextOp(op);
  if (op.create) {
    if (!(await access.claim(user, id))) throw collabErrors.forbidden(`creating ${id}: it belongs to someone else`);
  } else if (op.del) {
    if (!(await access.canManage(user, id))) throw collabErrors.forbidden(`deleting ${id} (its owner and administrators only)`);
  } else if (!(await access.canEdit(user, id))) {
    // A viewer may read it: they are told why, and the connection stays usable.
    if (await access.canRead(user, id)) throw collabErrors.readOnly(id);
    throw collabErrors.forbidden(`document ${id}`);
  }
}

export interface Cursor {
  index: number;
  length: number;
  /** The person has not typed or moved for a while, or their tab is hidden (the "here now" list). */
  idle?: true;
  user: string;
}

/**
 * A cursor as others will see it: only the fields the editor needs, and the user as the server
 * knows them, so that no one labels their cursor with someone else's name. null clears it.
 */
export function cursorOf(presence: unknown, user: SessionUser): Cursor | null {
  if (presence === null) return null;
  const { index, length, idle } = (presence ?? {}) as { index?: unknown; length?: unknown; idle?: unknown };
  if (!Number.isSafeInteger(index) || (index as number) < 0 || !Number.isSafeInteger(length) || (length as number) < 0) {
    throw new CollabError('ERR_BAD_PRESENCE', 'presence is { index, length, idle? }: two integers of 0 or more, and true or false');
  }
  if (idle !== undefined && typeof idle !== 'boolean') {
    throw new CollabError('ERR_BAD_PRESENCE', 'presence is { index, length, idle? }: idle is true or false');
  }
  return { index: index as number, length: length as number, ...(idle ? { idle: true } : {}), user: user.id };
}

/** Whether a commit saves a milestone snapshot: every `everyOps` versions, or `everySeconds` after the last. */
export function milestoneDue(
  version: number,
  now: number,
  lastSaved: number | undefined,
  every: { everyOps: number; everySeconds: number },
): boolean {
  return version % every.everyOps === 0 || lastSaved === undefined || now - lastSaved >= every.everySeconds * 1000;
}
