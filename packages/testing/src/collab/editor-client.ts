// A ShareDB client in Node for tests and the benchmark: a real WebSocket to /collab carrying a
// session cookie, and the waits that ShareDB's batching makes necessary (it may merge queued ops
// into one submit, so versions are compared, never counted).
import ShareDB from 'sharedb/lib/client/index.js';
import richTextModule from 'rich-text';
import { WebSocket } from 'ws';
import { until } from '../wait.ts';
import { COLLAB_PATH, plainText } from '@eventide/contract/resources/documents/collab-wire.ts';

const richText = richTextModule.type;

ShareDB.types.register(richText);

export type Connection = InstanceType<typeof ShareDB.Connection>;
export type Doc = ReturnType<Connection['get']>;

export interface EditorClient {
  connection: Connection;
  socket: WebSocket;
  /** The document of that id in the collection `documents`. */
  doc(id: string): Doc;
  close(): void;
}

/** Opens a socket and resolves once it is open; rejects with the refusal's status and body if refused. */
export function openSocket(url: string, cookie: string, origin?: string): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${COLLAB_PATH}`, { headers: { cookie, ...(origin ? { origin } : {}) } });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () =>
        reject(Object.assign(new Error(`upgrade refused: ${response.statusCode} ${body}`), { status: response.statusCode, body })),
      );
    });
    socket.once('error', reject);
  });
}

export async function connectEditor(url: string, cookie: string): Promise<EditorClient> {
  const socket = await openSocket(url, cookie);
  const connection = new ShareDB.Connection(socket as never);
  return {
    connection,
    socket,
    doc: (id) => connection.get('documents', id),
    close: () => connection.close(),
  };
}

export const textOf = (doc: Doc) => plainText(doc.data);

export const call = <T = void>(start: (callback: (error?: unknown, result?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => start((error, result) => (error ? reject(error) : resolve(result as T))));

/** Subscribes and creates the document (empty text) if nobody has yet. */
export async function openText(doc: Doc): Promise<Doc> {
  await call((done) => doc.subscribe(done));
  if (!doc.type) {
    await call((done) => doc.create([], richText.uri, done)).catch((error: { code?: string }) => {
      if (error.code !== 'ERR_DOC_ALREADY_CREATED') throw error;
    });
  }
  if (!doc.type) await call((done) => doc.fetch(done));
  return doc;
}

export const settled = (doc: Doc) => !doc.hasWritePending();

/** Waits until every doc has nothing pending and all are at one version (the server's). */
export async function converged(docs: Doc[], version: () => Promise<number>, ms = 30_000): Promise<void> {
  await until(
    async () => {
      if (!docs.every(settled)) return false;
      const server = await version();
      return docs.every((doc) => doc.version === server);
    },
    'editors to settle at the server version',
    ms,
  );
}

/** Submits an edit and resolves on its ack. */
export const submit = (doc: Doc, op: unknown) => call((done) => doc.submitOp(op, {}, done));
