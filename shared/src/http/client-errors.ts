// Requests Node's HTTP parser refuses before any middleware runs (a method it does not know, a
// malformed request line, headers past the size limit, a request too slow to arrive). Node's own
// answer is a bare "400 Bad Request"; ours is the same problem+json as every other refusal.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

const REFUSALS: Record<string, { status: number; title: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    title: 'Request header fields too large',
    detail: 'the request headers are larger than the server accepts',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, title: 'Request timeout', detail: 'the request did not arrive in time' },
};
const MALFORMED = { status: 400, title: 'Bad request', detail: 'the request is not well-formed HTTP/1.1' };

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // A connection reset or a socket already answering needs no answer.
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({ type: '/problems/http', title: refusal.title, status: refusal.status, detail: refusal.detail });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
