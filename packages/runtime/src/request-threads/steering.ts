// Which thread serves a connection, decided by its first request line. A request thread answers
// reads and hands everything else to the writing thread a request at a time (hand-over.ts), parsing
// each twice. A connection whose first request is a write (any method but GET and HEAD that this
// thread does not answer) is most likely a writer's: it goes to the writing thread whole, its bytes
// piped both ways unparsed, and the writing thread's server serves it as its own (its timeouts
// included). Its later requests, reads too, are the writing thread's. Every other connection is
// this thread's HTTP server's, as before. The connection's caps and the watch on its client's
// progress stay here (platform http/passed-on.ts); its descriptor was counted when it was accepted.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { PASSED_ON } from '@eventide/platform/http/passed-on.ts';

/** Methods that never start a piped connection: reads stay with the thread that can answer them. */
const READS = new Set(['GET', 'HEAD']);
/**
 * The longest first line looked for; past it the connection goes to this thread's server, which
 * refuses an overlong request line itself (Node's header limit is 16 KiB).
 */
const MAX_FIRST_LINE = 16 * 1024;
const CRLF = Buffer.from('\r\n');

export interface Steering {
  /** Whether this thread answers `method` on `path` itself (routing.ts). */
  answersHere(method: string, path: string): boolean;
  /** Passes the connection whole to the writing thread, with the bytes already read from it. */
  pipe(socket: Socket, head: Buffer): void;
  /** How long a client may take to send its first request line (HTTP_HEADERS_TIMEOUT_MS). */
  firstLineTimeoutMs: number;
}

/**
 * Puts the steering before `server`'s own handling of each new connection. The server's other
 * 'connection' listeners (its caps) still see every connection first, as they did.
 */
export function steerConnections(server: Server, steering: Steering): void {
  const [http] = server.listeners('connection') as Array<(socket: Socket) => void>;
  // Node's own listener, which sets a connection up for HTTP, is the first: the server added it as it was made.
  if (http?.name !== 'connectionListener') throw new Error("the HTTP server's own connection listener is not where it was expected");
  server.removeListener('connection', http);
  server.prependListener('connection', (socket: Socket) => {
    const read: Buffer[] = [];
    let length = 0;
    const timer = setTimeout(() => socket.destroy(), steering.firstLineTimeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('close', done);
    };
    const onData = (chunk: Buffer) => {
      read.push(chunk);
      length += chunk.length;
      const head = read.length === 1 ? chunk : Buffer.concat(read, length);
      const end = head.indexOf(CRLF);
      if (end === -1 && length < MAX_FIRST_LINE) return;
      done();
      socket.pause();
      const [method = '', target = ''] = head
        .subarray(0, end === -1 ? 0 : end)
        .toString('latin1')
        .split(' ');
      if (end !== -1 && !READS.has(method) && !steering.answersHere(method, pathOf(target))) {
        server.emit(PASSED_ON, socket);
        steering.pipe(socket, head);
        return;
      }
      socket.unshift(head);
      http.call(server, socket);
      socket.resume();
    };
    socket.on('data', onData);
    socket.once('close', done);
  });
}

const pathOf = (target: string) => {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
};
