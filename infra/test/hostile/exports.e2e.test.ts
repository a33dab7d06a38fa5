// Exports against the real process (issue 44, case 1): people with many documents of a million
// characters each ask for their export many times at once. Built whole in memory, eight such
// exports of one person took the process to 7.6 GB and out of memory, cutting off every client.
// Streamed, each costs the memory of about one document, whatever the person holds; one runs per
// person at a time (the rest get 429), a few per process (the rest 503); each arrives whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { connect, type Socket } from 'node:net';
import { until } from '@eventide/testing/wait.ts';
import { healthy, startTarget, type HostileTarget } from './service.ts';

const PEOPLE = 4;
const DOCUMENTS = Number(process.env.HOSTILE_EXPORT_DOCUMENTS ?? 12);
const CHARACTERS = 1_000_000;
const ASKS_EACH = 8;
const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';
/** What one export sends. */
const EXPORT_MIB = (DOCUMENTS * CHARACTERS) / 2 ** 20;

let target: HostileTarget;
const people: Array<{ client: JsonClient; userId: string }> = [];

beforeAll(async () => {
  // One message makes a whole document, so that setting up takes seconds; the limits on
  // messages are another test's.
  target = await startTarget({ COLLAB_MAX_MESSAGE_BYTES: String(4 * 2 ** 20) });
  for (let p = 0; p < PEOPLE; p++) {
    const client = jsonClient(target.url);
    const { userId } = await signUp(client);
    const editor = await rawClient(target.url, client.cookieHeader());
    for (let d = 0; d < DOCUMENTS; d++) {
      const text = String.fromCharCode(97 + ((p + d) % 26)).repeat(CHARACTERS);
      editor.send({
        a: 'op',
        c: 'documents',
        d: `export-${p}-${d}`,
        v: 0,
        src: editor.id,
        seq: d + 1,
        create: { type: TEXT_TYPE, data: [{ insert: text }] },
      });
      await editor.reply((m) => m.a === 'op' && m.seq === d + 1, `document ${d} of person ${p}`);
    }
    editor.socket.close();
    people.push({ client, userId });
  }
}, 300_000);
afterAll(() => target?.close());

interface Asked {
  status: number;
  retryAfter: string | null;
  body: string;
}

async function ask({ client, userId }: { client: JsonClient; userId: string }): Promise<Asked> {
  const response = await fetch(`${target.url}/users/${userId}/export`, { headers: { cookie: client.cookieHeader() } });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
}

describe('exports of people who hold a lot', { timeout: 300_000 }, () => {
  it('stream in bounded memory, one per person at a time, each whole', async () => {
    let peakMiB = target.rssMiB();
    let asking = true;
    const sampler = (async () => {
      while (asking) {
        peakMiB = Math.max(peakMiB, target.rssMiB());
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const beforeMiB = target.rssMiB();
    const answers = await Promise.all(people.map(async (person) => Promise.all(Array.from({ length: ASKS_EACH }, () => ask(person)))));
    asking = false;
    await sampler;
    expect(await healthy(target.url)).toBe(true);

    for (const [p, asked] of answers.entries()) {
      const statuses = asked.map((a) => a.status).sort();
      expect(
        statuses.every((s) => s === 200 || s === 429 || s === 503),
        statuses.join(),
      ).toBe(true);
      for (const refused of asked.filter((a) => a.status !== 200)) {
        expect(refused.retryAfter).toMatch(/^\d+$/);
        expect(JSON.parse(refused.body).type).toMatch(/^\/problems\/(rate-limited|busy)$/);
      }
      // Each export that was sent is whole: every document, every character.
      for (const { body } of asked.filter((a) => a.status === 200)) {
        const exported = JSON.parse(body);
        expect(exported.userId).toBe(people[p]!.userId);
        expect(exported.documents).toHaveLength(DOCUMENTS);
        expect(exported.documents.every((d: { text: string }) => d.text.length === CHARACTERS)).toBe(true);
      }
      // Asked eight times at once, a person is sent one export; the rest are told to wait.
      expect(statuses.filter((s) => s === 200).length, statuses.join()).toBeLessThanOrEqual(1);
    }
    expect(answers.flat().filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    const sentMiB = answers.flat().filter((a) => a.status === 200).length * EXPORT_MIB;
    console.log(`exports: ${sentMiB.toFixed(0)} MiB sent; RSS ${beforeMiB.toFixed(0)} MiB before, peak ${peakMiB.toFixed(0)} MiB`);
    // Built whole, the 32 exports asked for at once (all sent: no lease) took RSS 537 MiB up, and it
    // stayed at 1.9 times idle past a minute; streamed, the few sent at once hold a document each
    // beside what the young generation and the 32 requests hold between collections, which a busy
    // machine collects later: +67 to +102 MiB measured on a quiet one (2026-11-29, before and after
    // that day's changes alike), +136 in a CI run. The bound sits between the two ways, at about a
    // third of building them whole: it fails an export held whole, not a late collection.
    expect(peakMiB - beforeMiB).toBeLessThan(Math.max(192, sentMiB / 2));

    // Once it is over, the person may ask again and is sent their export.
    const again = await ask(people[0]!);
    expect(again.status).toBe(200);
    // And the process gives back what the abuse took: the people's documents, made before it, stay.
    await target.memoryReturns(beforeMiB);
  });
});

/** Asks for a person's export on a socket of its own, reads the answer's first bytes, then takes nothing. */
function stallingExport({ client, userId }: { client: JsonClient; userId: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(target.url).port), '127.0.0.1', () =>
      socket.write(`GET /users/${userId}/export HTTP/1.1\r\nHost: localhost\r\nCookie: ${client.cookieHeader()}\r\n\r\n`),
    );
    socket.once('data', (first) => {
      socket.pause();
      if (first.toString().startsWith('HTTP/1.1 200')) resolve(socket);
      else reject(new Error(`the stalling export was refused: ${first.toString().split('\r\n')[0]}`));
    });
    socket.once('error', reject);
  });
}

describe('export places held by readers that take nothing', { timeout: 300_000 }, () => {
  it('are given up, and another person is sent their export meanwhile', async () => {
    // Every place (EXPORTS_AT_ONCE, 4) held by an export of 12 MB that its reader does not take.
    const stalling = await Promise.all(people.map(stallingExport));
    const other = jsonClient(target.url);
    const { userId } = await signUp(other);
    const refused: number[] = [];
    const asking = performance.now();
    let answer: Asked | undefined;
    await until(
      async () => {
        answer = await ask({ client: other, userId });
        if (answer.status === 503) refused.push(Number(answer.retryAfter));
        return answer.status === 200;
      },
      () => `another person's export (last answer ${answer?.status}: ${answer?.body.slice(0, 200)})`,
      120_000,
    );
    expect(JSON.parse(answer!.body).userId).toBe(userId);
    // Told to come back in a second while the places were held, never anything but 503 meanwhile.
    expect(refused.every((seconds) => seconds >= 1)).toBe(true);
    // Each refusal left the hourly budget (10) whole: it is spent once an export has its place.
    console.log(
      `exports: another person was sent theirs after ${((performance.now() - asking) / 1000).toFixed(1)} s and ${refused.length} refusals while 4 readers took nothing`,
    );
    for (const socket of stalling) socket.destroy();
    await target.memoryReturns();
  });
});
