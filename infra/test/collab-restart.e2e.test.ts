// Done-when: acknowledged edits survive a restart of the service. Editors type into one document
// through `npm start`'s process until it is killed (SIGKILL: no shutdown hooks); every op whose
// ack arrived must be in the document after the restart, and the editors can carry on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { connectEditor, openText, submit, textOf } from '@eventide/testing/collab/editor-client.ts';
import { CLOSE_RESTARTING } from '@eventide/contract/resources/documents/collab-wire.ts';
import { startService } from './process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'eventide-collab-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('keeps every acknowledged op when the process is killed while editors type', async () => {
  const first = await startService({ DATA_DIR: dataDir });
  const http = jsonClient(first.url);
  await signUp(http);
  const acknowledged: string[] = [];
  const editors = await Promise.all([0, 1, 2].map(() => connectEditor(first.url, http.cookieHeader())));
  const docs = [];
  for (const editor of editors) docs.push(await openText(editor.doc('durable')));
  let typing = true;
  const typists = docs.map(async (doc, n) => {
    for (let i = 0; typing; i++) {
      const word = `<${n}.${i}>`;
      try {
        await submit(doc, [{ insert: word }]);
        acknowledged.push(word);
      } catch {
        return;
      }
    }
  });
  await until(() => acknowledged.length >= 60, 'some acknowledged ops');
  await first.kill();
  typing = false;
  for (const editor of editors) editor.close();
  await Promise.race([Promise.all(typists), new Promise((resolve) => setTimeout(resolve, 1000))]);

  const second = await startService({ DATA_DIR: dataDir });
  try {
    // The session survives too (it is stored in the data directory), so the same cookie works.
    const reply = await fetch(`${second.url}/collab/documents/durable`, { headers: { cookie: http.cookieHeader() } });
    expect(reply.status).toBe(200);
    const { text, version } = (await reply.json()) as { text: string; version: number };
    const missing = acknowledged.filter((word) => !text.includes(word));
    expect(missing).toEqual([]);
    expect(version).toBeGreaterThanOrEqual(acknowledged.length + 1);

    const again = await connectEditor(second.url, http.cookieHeader());
    const doc = await openText(again.doc('durable'));
    expect(textOf(doc)).toBe(text);
    await submit(doc, [{ insert: 'after the restart ' }]);
    // A clean shutdown closes open editors itself, telling them to reconnect (1012), instead of waiting out the HTTP drain.
    const closed = new Promise<number>((resolve) => again.socket.once('close', (code) => resolve(code)));
    await second.stop();
    expect(await closed).toBe(CLOSE_RESTARTING);
  } finally {
    await second.stop();
  }
}, 120_000);
