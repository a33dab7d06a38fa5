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
    endWithProblem(socket, { type: '/problems/http', ...refusal });
  });
}

/**
 * Answers on a bare socket (no Koa: a request the parser refused, an upgrade refused) with a
 * problem+json document, and closes the connection.
 */
export function endWithProblem(
  socket: Duplex,
  problem: { type: string; title: string; status: number; detail: string; instance?: string },
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${problem.title}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
