// Reading documents outside the editor: the text of a document now, at a version, or at a
// time (from the nearest milestone snapshot plus the ops after it). Uses the server's own
// ShareDB connection; callers check access first.
import type ShareDB from 'sharedb';
import { DOCUMENTS } from './sharedb/access.ts';
import { plainText } from './text.ts';

import type { DocumentText } from '@eventide/shared/api/documents.ts';
export type { DocumentText };

type Connection = ReturnType<ShareDB['connect']>;
interface SnapshotLike {
  v: number;
  type: string | null;
  data: unknown;
  m?: { ctime?: number; mtime?: number } | null;
}

export function documentReader(backend: ShareDB) {
  const connection: Connection = backend.connect();
  const describe = (id: string, snapshot: SnapshotLike): DocumentText => ({
    id,
    version: snapshot.v,
    text: snapshot.type ? plainText(snapshot.data) : null,
    ...(snapshot.m?.ctime ? { createdAt: new Date(snapshot.m.ctime).toISOString() } : {}),
    ...(snapshot.m?.mtime ? { modifiedAt: new Date(snapshot.m.mtime).toISOString() } : {}),
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
