// The durability promise: a write that was acknowledged survives the process being killed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from './process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function post(url: string, path: string, body: unknown) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { userId: string; email: string } };
}

describe('restart', () => {
  it('keeps every acknowledged write when the process is killed in the middle of writing', async () => {
    const first = await startService({ DATA_DIR: dataDir });
    const acknowledged: Array<{ userId: string; email: string }> = [];
    let writing = true;
    // Four writers at once until the kill; whatever was answered 201 must survive it.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        try {
          const reply = await post(first.url, '/users', { name: `W${w}`, email: `w${w}-${i}@example.com` });
          if (reply.status === 201) acknowledged.push(reply.body);
        } catch {
          return; // the connection died with the process
        }
      }
    });
    const deadline = Date.now() + 20_000;
    while (acknowledged.length < 60 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    await first.kill();
    writing = false;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    const second = await startService({ DATA_DIR: dataDir });
    try {
      for (const user of acknowledged) {
        // Conditional on revision 0: only succeeds if the creation is there, exactly once.
        const response = await fetch(`${second.url}/users/${user.userId}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'If-Match': '"0"' },
          body: JSON.stringify({ name: 'After restart' }),
        });
        expect(response.status, user.userId).toBe(200);
        // and the email claim survived with it
        expect((await post(second.url, '/users', { name: 'Copy', email: user.email })).status).toBe(409);
      }
    } finally {
      await second.stop();
    }
  });
});
