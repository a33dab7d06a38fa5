// Collaborative editing: how long an op takes to reach every other editor of one document, with
// 50 editors connected. Floor: a raw WebSocket echo round trip (client → server → client, the
// same hops). Peer: the same edits through a Yjs server (Hocuspocus). Every server runs in its
// own process; all clients share this one, so client-side work weighs the same on each side.
import * as Y from 'yjs';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { connectEditor, openText, type Doc } from '@eventide/testing/collab/editor-client.ts';
import { startService } from '../test/process.ts';
import { spawnServer } from './servers/spawn.ts';

export interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

export interface CollabResults {
  editors: number;
  rounds: number;
  echo: Latency;
  ours: Latency;
  yjs: Latency | undefined;
}

function latency(samples: number[]): Latency {
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p99: at(0.99), samples: samples.length };
}

async function echoRoundTrips(rounds: number): Promise<Latency> {
  const server = await spawnServer('./ws-echo.ts');
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}`, { perMessageDeflate: false });
  await new Promise((resolve) => socket.once('open', resolve));
  const samples: number[] = [];
  // The size of a typical one-character op message.
  const message = JSON.stringify({ a: 'op', c: 'documents', d: 'bench', v: 1, seq: 1, op: [{ retain: 120 }, { insert: 'x' }] });
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    socket.send(message);
    await new Promise((resolve) => socket.once('message', resolve));
    samples.push(performance.now() - started);
  }
  socket.close();
  server.stop();
  return latency(samples);
}

/**
 * One editor at a time types a character (round robin); a round ends when every other editor
 * has it. Samples: send to arrival, for each receiving editor.
 */
async function propagate(
  editors: number,
  rounds: number,
  type: (writer: number, round: number) => void,
  onRemote: (listener: (editor: number) => void) => void,
): Promise<Latency> {
  const samples: number[] = [];
  let started = 0;
  let arrived = 0;
  let roundDone: () => void = () => undefined;
  onRemote(() => {
    samples.push(performance.now() - started);
    if (++arrived === editors - 1) roundDone();
  });
  for (let round = 0; round < rounds; round++) {
    arrived = 0;
    const done = new Promise<void>((resolve) => (roundDone = resolve));
    const bound = setTimeout(() => roundDone(), 10_000);
    started = performance.now();
    type(round % editors, round);
    await done;
    clearTimeout(bound);
    if (arrived !== editors - 1) throw new Error(`round ${round}: ${arrived} of ${editors - 1} editors got the edit`);
  }
  return latency(samples);
}

async function ours(dataDir: string, editors: number, rounds: number): Promise<Latency> {
  const service = await startService({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  try {
    // One user each, as in real use (one user may hold only a few connections): the first makes
    // the document and lets the others edit it.
    const owner = jsonClient(service.url);
    await signUp(owner);
    const clients = [];
    const docs: Doc[] = [];
    for (let i = 0; i < editors; i++) {
      const http = i === 0 ? owner : jsonClient(service.url);
      if (i > 0) await owner.request('PUT', `/collab/documents/bench/editors/${(await signUp(http)).userId}`);
      const client = await connectEditor(service.url, http.cookieHeader());
      clients.push(client);
      docs.push(await openText(client.doc('bench')));
    }
    const result = await propagate(
      editors,
      rounds,
      (writer) => docs[writer]!.submitOp([{ insert: 'x' }]),
      (listener) => {
        for (const [i, doc] of docs.entries()) doc.on('op', (_op, source) => !source && listener(i));
      },
    );
    for (const client of clients) client.close();
    return result;
  } finally {
    await service.stop();
  }
}

async function yjs(editors: number, rounds: number): Promise<Latency> {
  const server = await spawnServer('./hocuspocus.ts');
  const providers: HocuspocusProvider[] = [];
  try {
    for (let i = 0; i < editors; i++) {
      const document = new Y.Doc();
      const provider = new HocuspocusProvider({
        url: `ws://127.0.0.1:${server.port}`,
        name: 'bench',
        document,
        WebSocketPolyfill: WebSocket,
      } as never);
      await new Promise<void>((resolve) => provider.on('synced', () => resolve()));
      providers.push(provider);
    }
    return await propagate(
      editors,
      rounds,
      (writer) => providers[writer]!.document.getText('text').insert(0, 'x'),
      (listener) => {
        for (const [i, provider] of providers.entries()) {
          provider.document.on('update', (_update: Uint8Array, origin: unknown) => origin === provider && listener(i));
        }
      },
    );
  } finally {
    for (const provider of providers) provider.destroy();
    server.stop();
  }
}

export async function benchCollab(dataDir: string, scale: number): Promise<CollabResults> {
  const editors = 50;
  const rounds = Math.max(50, Math.round(300 * scale));
  const echo = await echoRoundTrips(rounds * 4);
  const ourLatency = await ours(dataDir, editors, rounds);
  let yjsLatency: Latency | undefined;
  try {
    yjsLatency = await yjs(editors, rounds);
  } catch (error) {
    console.warn(`Yjs peer (Hocuspocus) skipped: ${(error as Error).message}`);
  }
  return { editors, rounds, echo, ours: ourLatency, yjs: yjsLatency };
}
