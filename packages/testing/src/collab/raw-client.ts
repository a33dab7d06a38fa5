// A hand-written ShareDB client for tests: sends exactly the messages a test names, as a
// malicious or buggy client could, and collects every reply.
import type { WebSocket } from 'ws';
import { until } from '../wait.ts';
import { openSocket } from './editor-client.ts';

export type Message = Record<string, any>;

export interface RawClient {
  socket: WebSocket;
  id: string;
  inbox: Message[];
  closed: { code: number; reason: string } | undefined;
  send(message: Message): void;
  /** The first message (after `from`) matching, waiting for it. */
  reply(match: (message: Message) => boolean, what: string, from?: number): Promise<Message>;
}

export async function rawClient(url: string, cookie: string, handshakeId?: string): Promise<RawClient> {
  const socket = await openSocket(url, cookie);
  const client: RawClient = {
    socket,
    id: '',
    inbox: [],
    closed: undefined,
    send: (message) => socket.send(JSON.stringify(message)),
    async reply(match, what, from = 0) {
      let found: Message | undefined;
      await until(
        () => {
          found = client.inbox.slice(from).find(match);
          return found !== undefined || client.closed !== undefined;
        },
        what,
        10_000,
      );
      if (!found) throw new Error(`connection closed (${client.closed?.code} ${client.closed?.reason}) before ${what}`);
      return found;
    },
  };
  socket.on('message', (data) => client.inbox.push(JSON.parse(data.toString())));
  socket.on('close', (code, reason) => (client.closed = { code, reason: reason.toString() }));
  client.send({ a: 'hs', protocol: 1, protocolMinor: 2, ...(handshakeId ? { id: handshakeId } : {}) });
  client.id = (await client.reply((m) => m.a === 'hs', 'the handshake')).id;
  return client;
}
