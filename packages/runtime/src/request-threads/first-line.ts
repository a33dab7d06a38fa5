// Reads a new connection's first line before anything else reads it: what the request threads
// steer a connection by (steering.ts), and what the door tells a piped connection from a handed-over
// request by (hand-over.ts). What it read is handed on, for the one that takes the connection to
// read again (socket.unshift) or to pass on.
import type { Socket } from 'node:net';

/** The longest first line looked for: Node's own limit on a request's head (16 KiB). */
export const MAX_FIRST_LINE = 16 * 1024;
const CRLF = Buffer.from('\r\n');

/**
 * Calls `then` with the first line (without its CRLF; undefined past MAX_FIRST_LINE bytes with
 * none) and every byte read so far, the socket paused; destroys a socket that sends no whole line
 * within `timeoutMs`.
 */
export function onFirstLine(socket: Socket, timeoutMs: number, then: (line: string | undefined, read: Buffer) => void): void {
  const read: Buffer[] = [];
  let length = 0;
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const stop = () => {
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('close', stop);
  };
  const onData = (chunk: Buffer) => {
    read.push(chunk);
    length += chunk.length;
    const head = read.length === 1 ? chunk : Buffer.concat(read, length);
    const end = head.indexOf(CRLF);
    if (end === -1 && length < MAX_FIRST_LINE) return;
    stop();
    socket.pause();
    then(end === -1 ? undefined : head.subarray(0, end).toString('latin1'), head);
  };
  socket.on('data', onData);
  socket.once('close', stop);
}
