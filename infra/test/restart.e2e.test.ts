// The durability promise: a write that was acknowledged survives the process being killed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { signInWithPassword, signUp } from '@eventide/testing/sign-in.ts';
import { grantAdmin, startService } from './process.ts';

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
      // An admin may change anyone's profile: made as an operator makes one.
      const admin = jsonClient(second.url);
      const { email, password } = await signUp(admin);
      await grantAdmin({ DATA_DIR: dataDir }, email);
      await signInWithPassword(admin, email, password);
      for (const user of acknowledged) {
        // Conditional on revision 0: only succeeds if the creation is there, exactly once.
        const response = await admin.request('PATCH', `/users/${user.userId}`, { name: 'After restart' }, { 'If-Match': '"0"' });
        expect(response.status, user.userId).toBe(200);
        // and the email claim survived with it
        expect((await post(second.url, '/users', { name: 'Copy', email: user.email })).status).toBe(409);
      }
    } finally {
      await second.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('answers no write with a 5xx when stopped mid-load, and keeps every write it answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-term-'));
    try {
      const service = await startService({ DATA_DIR: dir });
      let answeredSoFar = 0;
      const inFlight = Array.from({ length: 200 }, (_, i) =>
        post(service.url, '/users', { name: 'T', email: `term-${i}@example.com` }).then((reply) => {
          answeredSoFar++;
          return reply;
        }),
      );
      const all = Promise.allSettled(inFlight);
      // Stop while the server is busy: some answered, the rest in flight or not yet sent.
      const deadline = Date.now() + 20_000;
      while (answeredSoFar < 10 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      await service.stop();
      const settled = await all;
      const answered = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      // Every request either got its 201 or was never accepted; none got a 5xx.
      expect(answered.length).toBeGreaterThanOrEqual(10);
      for (const reply of answered) expect(reply.status).toBe(201);
      const again = await startService({ DATA_DIR: dir });
      try {
        for (const reply of answered) {
          expect((await post(again.url, '/users', { name: 'Copy', email: reply.body.email })).status).toBe(409);
        }
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
