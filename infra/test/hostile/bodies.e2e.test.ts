// Issue 44, case 7: a body past BODY_LIMIT sent without a length (chunked), by a client that
// writes all of it before it reads. The server answered 413 at once and closed on the bytes it had
// not read, so such a client usually saw its connection reset and never the 413. Now the rest is
// read and thrown away, up to a bound, before the 413 is sent and the connection closed.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, type HostileTarget } from './service.ts';

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(() => target?.close());

/** Sends `chunks` chunks of 64 KiB as one chunked JSON body, reading nothing until it is all written; what came back, or the error. */
function sendWholeBodyFirst(port: number, chunks: number): Promise<{ answer: string; error?: string }> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', async () => {
      socket.write('POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(65536, 97), Buffer.from('\r\n')]);
      for (let i = 0; i < chunks && !socket.destroyed; i++) {
        if (!socket.write(chunk)) await new Promise((drained) => socket.once('drain', drained));
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
    });
    socket.on('data', (data) => (answer += data));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ answer, error: error.code ?? error.message }));
    socket.once('close', () => resolve({ answer }));
  });
}

describe('an oversized chunked body', () => {
  it('is answered with its 413, not a reset, when it is within the bound the server reads', async () => {
    const port = Number(new URL(target.url).port);
    for (let i = 0; i < 5; i++) {
      // 2 MiB, 32 times the limit.
      const { answer, error } = await sendWholeBodyFirst(port, 32);
      expect(error, `attempt ${i}`).toBeUndefined();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"type":"/problems/too-large"');
    }
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
