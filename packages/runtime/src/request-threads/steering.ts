// Which thread serves a connection, decided by its first request line. A request thread answers
// reads and hands everything else to the writing thread a request at a time (hand-over.ts), parsing
// each twice. A connection whose first request is a write (any method but GET and HEAD that this
// thread does not answer) is most likely a writer's: it goes to the writing thread whole, its bytes
// piped both ways unparsed, and the writing thread's server serves it as its own (its timeouts
// included). Its later requests, reads too, are the writing thread's. Every other connection is
// this thread's HTTP server's, as before. The connection's caps, its place in the shedding under
// pressure, and the watch on its client's progress stay here (platform http/passed-on.ts).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ANSWERED_THROUGH } from '@eventide/platform/http/passed-on.ts';
import { onFirstLine } from './first-line.ts';
import { pathOf } from './routing.ts';

/** Methods that never start a piped connection: reads stay with the thread that can answer them. */
const READS = new Set(['GET', 'HEAD']);

export interface Steering {
  /** Whether this thread answers `method` on `path` itself (routing.ts). */
  answersHere(method: string, path: string): boolean;
  /**
   * Passes the connection whole to the writing thread, with the bytes already read from it;
   * `answered` on each piece of an answer that comes back.
   */
  pipe(socket: Socket, head: Buffer, answered: () => void): void;
  /** How long a client may take to send its first request line (HTTP_HEADERS_TIMEOUT_MS). */
  firstLineTimeoutMs: number;
}

/**
 * Puts the steering before `server`'s own handling of each new connection. The server's other
 * 'connection' listeners (its caps, the watch on slow readers) still see each as it is accepted.
 */
export function steerConnections(server: Server, steering: Steering): void {
  const [http] = server.listeners('connection') as Array<(socket: Socket) => void>;
  // Node's own listener, which sets a connection up for HTTP, is the first: the server added it as it was made.
  if (http?.name !== 'connectionListener') throw new Error("the HTTP server's own connection listener is not where it was expected");
  server.removeListener('connection', http);
  server.prependListener('connection', (socket: Socket) =>
    onFirstLine(socket, steering.firstLineTimeoutMs, (line, read) => {
      const [method = '', target = ''] = (line ?? '').split(' ');
      if (line !== undefined && !READS.has(method) && !steering.answersHere(method, pathOf(target))) {
        steering.pipe(socket, read, () => server.emit(ANSWERED_THROUGH, socket));
        return;
      }
      // Past the longest line looked for, the server refuses an overlong request line itself.
      socket.unshift(read);
      http.call(server, socket);
      socket.resume();
    }),
  );
}
