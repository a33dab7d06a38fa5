// Issue 59: one WebSocket message from a signed-in user could end the whole process. Here signed-in
// users (one of them an admin, who may query) send generated hostile messages (collab-messages.ts)
// to `npm start`'s real process, one at a time each, while two honest editors type into a shared
// document. The process must stay up; every message is answered (an error for a bad one, never
// ERR_INTERNAL or a hidden store failure); a frame that is no message closes its connection with a
// documented code; and the honest editors converge round after round throughout.
// HOSTILE_COLLAB_MESSAGES sets how many messages (20,000); HOSTILE_SEED replays a run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawClient, type Message, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { connectEditor, converged, openText, submit, textOf, type Doc, type EditorClient } from '@eventide/testing/collab/editor-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { collabFrames, FRAME_CLOSE_CODES, type Aims, type Frame } from './collab-messages.ts';
import { healthy, startTarget, type HostileTarget } from './service.ts';

const MESSAGES = Number(process.env.HOSTILE_COLLAB_MESSAGES ?? 20_000);
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : Date.now() % 2 ** 31;
const FUZZERS = 6;
/** How long one message may take to be answered, on a loaded machine. */
const ANSWER_MS = 30_000;
const TEXT_TYPE = 'http://sharejs.org/types/rich-text/v1';
/** Answers that mean the server failed, not that the message was refused. */
const FAULTS = ['ERR_INTERNAL', 'ERR_UNAVAILABLE'];
/** COLLAB_MAX_MESSAGE_BYTES's default. */
const MAX_MESSAGE_BYTES = 256 * 1024;

interface Fuzzer {
  http: JsonClient;
  client: RawClient;
  aims: Aims;
}

let target: HostileTarget;
let fuzzers: Fuzzer[];
let editors: EditorClient[];
let shared: Doc[];
let owner: JsonClient;
const SHARED = `shared-${process.pid}`;

async function connect(http: JsonClient): Promise<RawClient> {
  return rawClient(target.url, http.cookieHeader());
}

beforeAll(async () => {
  target = await startTarget({
    // The run is about answers, not about the per-connection bounds, which have tests of their own.
    COLLAB_MESSAGES_PER_SECOND: '10000',
    COLLAB_DOCUMENTS_PER_HOUR: '100000',
    COLLAB_VERSION_NAMES_PER_HOUR: '100000',
  });
  owner = jsonClient(target.url);
  await signUp(owner);
  const partner = jsonClient(target.url);
  const partnerId = (await signUp(partner)).userId;
  editors = [await connectEditor(target.url, owner.cookieHeader()), await connectEditor(target.url, partner.cookieHeader())];
  const first = await openText(editors[0]!.doc(SHARED));
  expect((await owner.request('PUT', `/collab/documents/${SHARED}/editors/${partnerId}`)).status).toBeLessThan(300);
  shared = [first, await openText(editors[1]!.doc(SHARED))];

  fuzzers = [];
  for (let i = 0; i < FUZZERS; i++) {
    const http = i === 0 ? await target.admin() : jsonClient(target.url);
    if (i > 0) await signUp(http);
    const client = await connect(http);
    const own = [0, 1, 2, 3].map((n) => `fuzz-${i}-${n}-${process.pid}`);
    // Two of its documents exist with some text; the other two are its to make.
    for (const [n, id] of own.slice(0, 2).entries()) {
      client.send({ a: 'op', c: 'documents', d: id, v: 0, seq: n + 1, create: { type: TEXT_TYPE, data: [{ insert: 'fuzzed text' }] } });
      await client.reply((m) => m.a === 'op' && m.d === id && m.seq === n + 1, `the creation of ${id}`);
    }
    fuzzers.push({ http, client, aims: { own, others: [SHARED] } });
  }
  for (const fuzzer of fuzzers) fuzzer.aims.others.push(...fuzzers.filter((f) => f !== fuzzer).map((f) => f.aims.own[0]!));
  // The admin may open (and delete) everyone's documents: not the honest editors', whose check it would end.
  fuzzers[0]!.aims.others = fuzzers[0]!.aims.others.filter((id) => id !== SHARED);
}, 120_000);

afterAll(async () => {
  for (const fuzzer of fuzzers ?? []) fuzzer.client.socket.close();
  for (const editor of editors ?? []) editor.close();
  await target?.close();
});

/** Actions the server also sends unasked (ops and presence of subscriptions, query diffs). */
const PUSHED = new Set(['op', 'p', 'q']);

/** Whether `reply` answers `sent` (one message is in flight per connection, so the first match is its answer). */
function answers(reply: Message, sent: Record<string, unknown>, client: RawClient): boolean {
  if (JSON.stringify(reply.a) !== JSON.stringify(sent.a)) return false;
  if (reply.error !== undefined || !PUSHED.has(String(sent.a))) return true;
  // An op's ack carries no op; a presence's answer is the sender's own presence; a query diff is never an answer.
  if (sent.a === 'op') return !('op' in reply) && !('create' in reply) && !('del' in reply);
  return sent.a === 'p' && reply.src === client.id;
}

/**
 * Resolves with the first message from `from` on that `isAnswer`, or with how the connection
 * closed; fails after ANSWER_MS, naming what was sent.
 */
function answerOf(
  client: RawClient,
  isAnswer: (reply: Message) => boolean,
  from: number,
  sent: unknown,
): Promise<Message | { closed: number }> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = client.inbox.slice(from).find(isAnswer);
      if (found) return done(found);
      if (client.closed) return done({ closed: client.closed.code });
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no answer within ${ANSWER_MS} ms to ${JSON.stringify(sent)?.slice(0, 300)}`));
    }, ANSWER_MS);
    const stop = () => {
      clearTimeout(timer);
      client.socket.off('message', later);
      client.socket.off('close', later);
    };
    const done = (outcome: Message | { closed: number }) => {
      stop();
      resolve(outcome);
    };
    // After the client's own listeners have put the message in its inbox.
    const later = () => setImmediate(check);
    client.socket.on('message', later);
    client.socket.on('close', later);
    check();
  });
}

function sendFrame(client: RawClient, frame: Frame): void {
  if ('message' in frame) client.socket.send(JSON.stringify(frame.message));
  else if ('text' in frame) client.socket.send(frame.text);
  else client.socket.send(frame.binary, { binary: true });
}

/** Sends each frame in turn and waits for its answer; returns the answers' codes by count. */
async function fuzz(fuzzer: Fuzzer, frames: Frame[], seen: Map<string, number>, problems: string[]): Promise<void> {
  for (const frame of frames) {
    if (fuzzer.client.closed) fuzzer.client = await connect(fuzzer.http);
    const { client } = fuzzer;
    const sent =
      'message' in frame && typeof frame.message === 'object' && frame.message !== null
        ? (frame.message as Record<string, unknown>)
        : undefined;
    const from = client.inbox.length;
    sendFrame(client, frame);
    const isMessage = sent !== undefined && !Array.isArray(sent);
    // A frame that is no message is answered by the connection's close.
    const isAnswer = isMessage ? (reply: Message) => answers(reply, sent!, client) : () => false;
    const outcome = await answerOf(client, isAnswer, from, sent ?? frame);
    const described = JSON.stringify(sent ?? frame).slice(0, 300);
    if ('closed' in outcome) {
      seen.set(`closed ${outcome.closed}`, (seen.get(`closed ${outcome.closed}`) ?? 0) + 1);
      // A message past the largest the server takes closes with 1009, as documented.
      const tooBig = isMessage && Buffer.byteLength(JSON.stringify(sent)) > MAX_MESSAGE_BYTES;
      if (tooBig ? outcome.closed !== 1009 : isMessage || !FRAME_CLOSE_CODES.includes(outcome.closed as number))
        problems.push(`the connection closed with ${outcome.closed} on ${described}`);
      continue;
    }
    const code = (outcome.error as { code?: string } | undefined)?.code ?? 'answered';
    seen.set(code, (seen.get(code) ?? 0) + 1);
    if (FAULTS.includes(code)) problems.push(`${code} (${(outcome.error as { message?: string }).message}) on ${described}`);
    if (sent?.a === 'hs' && !outcome.error && outcome.id) client.id = outcome.id as string;
  }
}

/** Rounds of honest typing on the shared document, each until both editors agree with the server. */
async function typeUntil(done: () => boolean): Promise<number> {
  const serverVersion = async () => (await owner.request('GET', `/collab/documents/${SHARED}`)).body.version as number;
  let rounds = 0;
  while (!done() || rounds < 3) {
    rounds++;
    await Promise.all([submit(shared[0]!, [{ insert: `a${rounds} ` }]), submit(shared[1]!, [{ insert: `b${rounds} ` }])]);
    await converged(shared, serverVersion, 60_000);
    expect(textOf(shared[0]!)).toBe(textOf(shared[1]!));
    expect(textOf(shared[0]!)).toContain(`a${rounds} `);
    expect(textOf(shared[0]!)).toContain(`b${rounds} `);
  }
  return rounds;
}

describe('hostile messages on the collab WebSocket', () => {
  it(`leave the process up, answer each message, and let honest editors converge (${MESSAGES} messages, seed ${SEED})`, async () => {
    const frames = fuzzers.map((fuzzer) =>
      fc.sample(collabFrames(fuzzer.aims), { numRuns: Math.ceil(MESSAGES / FUZZERS), seed: SEED + fuzzers.indexOf(fuzzer) }),
    );
    const seen = new Map<string, number>();
    const problems: string[] = [];
    let fuzzing = true;
    const typing = typeUntil(() => !fuzzing);
    try {
      await Promise.all(fuzzers.map((fuzzer, i) => fuzz(fuzzer, frames[i]!, seen, problems)));
    } catch (error) {
      const { exitCode, signalCode } = target.child;
      if (exitCode !== null || signalCode !== null) throw new Error(`the process ended (${exitCode ?? signalCode}) while it was fuzzed`);
      throw error;
    } finally {
      fuzzing = false;
    }
    const rounds = await typing;
    console.log(
      `collab fuzz (seed ${SEED}): ${frames.flat().length} frames; ${[...seen]
        .sort(([, a], [, b]) => b - a)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ')}; the honest editors converged ${rounds} times`,
    );
    expect(problems).toEqual([]);
    expect([target.child.exitCode, target.child.signalCode], 'the process ended').toEqual([null, null]);
    expect(await healthy(target.url)).toBe(true);
    // The run went past the first checks: some messages did what they asked.
    expect(seen.get('answered') ?? 0).toBeGreaterThan(MESSAGES / 20);
  }, 1_800_000);
});
