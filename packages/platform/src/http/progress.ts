// Progress or go: a connection with bytes waiting to be sent that sends none of them for the send
// timeout is reset. A reader that takes nothing otherwise holds, for as long as it likes, what the
// kernel took of the answer (up to 2 MiB per socket on loopback, where the send buffer grows with
// the 64 KiB segments) and what the process could not yet give it. The reset (RST, not FIN) frees
// both at once: a closed socket with unsent data would stay in the kernel as an orphan, probing a
// window that never opens. What the kernel alone holds (an answer's last bytes, handed over) is
// bounded by the same timeout there (TCP_USER_TIMEOUT, socket-options.ts). docs/operations.md#bounds
// lists the knob.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { countedElsewhere } from './passed-on.ts';

/** What one connection had sent when last looked at, and since when it has sent nothing more. */
interface Watched {
  sent: number;
  since: number;
}

/**
 * Bytes the socket has handed to the kernel: all it was given, less what still waits in the
 * process. It grows each time a write completes, so an answer written in pieces (static-file.ts
 * writes large files 64 KiB at a time) shows progress long before its end.
 */
const sentBy = (socket: Socket) => socket.bytesWritten - socket.writableLength;

/**
 * Resets every connection of the server that has had bytes waiting and sent none of them for
 * `sendTimeoutMs`. One sweep over the open connections, a quarter of the timeout apart, rather
 * than a timer per socket: thousands of connections cost one interval.
 */
export function dropStalledReaders(server: Server, sendTimeoutMs: number): void {
  const watched = new Map<Socket, Watched>();
  server.on('connection', (socket: Socket) => {
    // Its client's progress is watched by the thread that holds it (connections.ts).
    if (countedElsewhere(socket)) return;
    watched.set(socket, { sent: 0, since: Date.now() });
    socket.once('close', () => watched.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [socket, seen] of watched) {
        const sent = sentBy(socket);
        if (socket.writableLength === 0 || sent !== seen.sent) {
          seen.sent = sent;
          seen.since = now;
        } else if (now - seen.since >= sendTimeoutMs) {
          watched.delete(socket);
          socket.resetAndDestroy();
        }
      }
    },
    Math.max(250, Math.floor(sendTimeoutMs / 4)),
  );
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
