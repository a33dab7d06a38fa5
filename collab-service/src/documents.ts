// Reading documents outside the editor: the text of a document now, at a version, or at a
// time (from the nearest milestone snapshot plus the ops after it). Uses the server's own
// ShareDB connection; callers check access first.
import type ShareDB from 'sharedb';
import { DOCUMENTS } from './sharedb/access.ts';
import { plainText } from '@eventide/contract/resources/documents/collab-wire.ts';

import type { DocumentText } from '@eventide/contract/resources/documents/schemas.ts';
export type { DocumentText };

type Connection = ReturnType<ShareDB['connect']>;
/** A snapshot's version and, when asked for, ShareDB's metadata (creation and last change, ms). */
export interface SnapshotMeta {
  v: number;
  m?: { ctime?: number; mtime?: number } | null;
}
interface SnapshotLike extends SnapshotMeta {
  type: string | null;
  data: unknown;
}

/** When a document was created and last changed, as the API answers them (absent when unknown). */
export function documentTimes(snapshot: SnapshotMeta | undefined): { createdAt?: string; modifiedAt?: string } {
  return {
    ...(snapshot?.m?.ctime ? { createdAt: new Date(snapshot.m.ctime).toISOString() } : {}),
    ...(snapshot?.m?.mtime ? { modifiedAt: new Date(snapshot.m.mtime).toISOString() } : {}),
  };
}

export function documentReader(backend: ShareDB) {
  const connection: Connection = backend.connect();
  const describe = (id: string, snapshot: SnapshotLike): DocumentText => ({
    id,
    version: snapshot.v,
    text: snapshot.type ? plainText(snapshot.data) : null,
    ...documentTimes(snapshot),
  });
  return {
    /** The document now; version 0 and null text if it never existed. */
    current: (id: string) =>
      new Promise<DocumentText>((resolve, reject) =>
        backend.db.getSnapshot(DOCUMENTS, id, null, { metadata: true }, (error: Error | null, snapshot: SnapshotLike) =>
          error ? reject(error) : resolve(describe(id, snapshot)),
        ),
      ),
    atVersion: (id: string, version: number) =>
      new Promise<DocumentText>((resolve, reject) =>
        connection.fetchSnapshot(DOCUMENTS, id, version, (error, snapshot) =>
          error ? reject(error) : resolve(describe(id, snapshot as unknown as SnapshotLike)),
        ),
      ),
    atTime: (id: string, at: Date) =>
      new Promise<DocumentText>((resolve, reject) =>
        connection.fetchSnapshotByTimestamp(DOCUMENTS, id, at.getTime(), (error, snapshot) =>
          error ? reject(error) : resolve(describe(id, snapshot as unknown as SnapshotLike)),
        ),
      ),
  };
}

export type DocumentReader = ReturnType<typeof documentReader>;
