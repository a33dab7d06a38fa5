// The two ends of the process's private door between its threads: a request thread hands each
// request it does not answer (routing.ts) to the thread that writes, over a socket in Linux's
// abstract namespace, with the client's address and a token only the process knows; the writing
// thread takes such requests as its own (platform http/forwarded.ts). Bodies and answers stream
// through (an upload, an event stream); an upgrade (the collaborative editor's WebSocket) is
// piped whole once its head is passed on.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, createServer as createNetServer, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { FORWARDED_ADDRESS, type ForwardedRequest } from '@eventide/platform/http/forwarded.ts';
import { COUNTED_ELSEWHERE } from '@eventide/platform/http/passed-on.ts';
import { onFirstLine } from './first-line.ts';
import { pathOf } from './routing.ts';
import { problems } from '@eventide/contract/problems.ts';
import { problemTypeUri } from '@eventide/contract/problem-types.ts';
import type { Logger } from '@eventide/kernel/log.ts';

const TOKEN_HEADER = 'eventide-thread-token';
const ADDRESS_HEADER = 'eventide-client-address';
/**
 * What `Connection: close` becomes on the door: the door's connections are the threads' own and stay
 * open (closed by the writing thread while the request thread still writes a body, an answer was
 * lost with them), and the request thread closes its client's connection instead.
 */
const CLOSE_HEADER = 'eventide-close';
/**
 * The first line of a connection passed on whole (steering.ts), before its client's bytes:
 * `EVENTIDE-PIPE <token> <client address>`. No HTTP request line starts so.
 */
const PIPE_PREAMBLE = 'EVENTIDE-PIPE';
/** How long a connection to the door may take to send its first line: the threads send it at once. */
const DOOR_FIRST_LINE_MS = 10_000;
/**
 * How long a connection passed through the door may stay half open: one side has ended, the other
 * has not. As long as ws waits for the other side of a WebSocket's closing handshake.
 */
const HALF_OPEN_MS = 30_000;
/** Hop-by-hop headers (RFC 9110 7.6.1): each hop's own, never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

export interface Door {
  /** An abstract socket's name (a leading NUL): no file to leave behind, gone with the process. */
  path: string;
  /** What every handed-over request carries; another local process that finds the socket does not know it. */
  token: string;
}

export function newDoor(): Door {
  return { path: `\0eventide-threads-${process.pid}-${randomBytes(6).toString('hex')}`, token: randomBytes(32).toString('base64url') };
}

/** The raw headers without the hop-by-hop ones, and without any header of our own a client sent. */
function passedOn(rawHeaders: string[], dropHopByHop = true): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if ((dropHopByHop && HOP_BY_HOP.has(name)) || name === TOKEN_HEADER || name === ADDRESS_HEADER || name === CLOSE_HEADER) continue;
    kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/**
 * A request thread's side: hands a request, or an upgrade, to the writing thread. `halfOpenMs`
 * bounds a piped connection left half open (joinedWhole).
 */
export function handOverTo(door: Door, log: Logger, halfOpenMs = HALF_OPEN_MS) {
  // Connections kept between requests: a hop costs a write and a read, not a connect.
  const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
  const ours = (req: IncomingMessage) => [TOKEN_HEADER, door.token, ADDRESS_HEADER, req.socket.remoteAddress ?? ''];
  // A connection piped whole: half open, so that each way ends only when its sender ends (joinedWhole).
  const pipedThroughDoor = (): Socket => connect({ path: door.path, allowHalfOpen: true });

  function request(req: IncomingMessage, res: ServerResponse): void {
    const upstream = httpRequest({
      agent,
      socketPath: door.path,
      method: req.method,
      path: req.url,
      headers: Object.fromEntries(pairs([...passedOn(req.rawHeaders), ...ours(req)])),
    });
    upstream.on('response', (answer) => {
      const closing = answer.headers[CLOSE_HEADER] !== undefined;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [
        ...passedOn(answer.rawHeaders),
        ...(closing ? ['Connection', 'close'] : []),
      ]);
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (res.headersSent) return void res.destroy();
      log.error({ err: error }, 'a request could not be handed to the writing thread');
      const problem = problems.busy('this part of the server is restarting; try again in a moment');
      const body = {
        type: problemTypeUri(problem.type),
        title: problem.title,
        status: problem.status,
        detail: problem.message,
        // Without the query, which may hold what a problem's `instance` must not repeat.
        instance: pathOf(req.url),
      };
      res.writeHead(problem.status, { ...problem.headers, 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify(body));
    });
    // A client that goes away ends the handed-over request too (an event stream, a slow upload).
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const upstream = pipedThroughDoor();
    // The upgrade's own hop-by-hop headers (Connection, Upgrade) are what the writing thread must see.
    const headers = [...passedOn(req.rawHeaders, false), ...ours(req)];
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    joinedWhole(socket, upstream, halfOpenMs);
  }

  /** A connection passed on whole (steering.ts): the preamble, what was read of it, then its bytes both ways. */
  function pipe(socket: Socket, head: Buffer, answered: () => void): void {
    const upstream = pipedThroughDoor();
    upstream.on('data', answered);
    upstream.write(`${PIPE_PREAMBLE} ${door.token} ${socket.remoteAddress ?? ''}\r\n`);
    upstream.write(head);
    joinedWhole(socket, upstream, halfOpenMs);
    socket.resume();
  }

  return { request, upgrade, pipe, close: () => agent.destroy() };
}

/**
 * Two connections piped into each other both ways. A side's end (its FIN) ends the other's writing
 * and nothing more, as TCP would: a server that closes a WebSocket first, as on a message over the
 * size limit, has its close frame and its FIN reach the client while the client is still sending
 * (ws reads and drops the rest), and an answer before the writing thread's FIN reaches a slow
 * reader whole. A failure, or a side closed without ending, ends both at once; a side left half
 * open (one end seen, not the other) is ended after `halfOpenMs`.
 */
function joinedWhole(client: Duplex, upstream: Socket, halfOpenMs: number): void {
  let halfOpen: NodeJS.Timeout | undefined;
  const end = () => {
    clearTimeout(halfOpen);
    client.destroy();
    upstream.destroy();
  };
  for (const side of [client, upstream]) {
    side.once('error', end);
    side.once('end', () => {
      halfOpen ??= setTimeout(end, halfOpenMs).unref();
    });
    side.once('close', () => {
      if (!side.readableEnded) end();
      else if (client.destroyed && upstream.destroyed) clearTimeout(halfOpen);
    });
  }
  upstream.pipe(client);
  client.pipe(upstream);
}

/** [name, value] pairs of raw headers, a name given twice joined as Node joins it (a request's Cookie with `; `). */
function pairs(raw: string[]): Array<[string, string]> {
  const joined = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const before = joined.get(name);
    joined.set(name, before === undefined ? raw[i + 1]! : `${before}${name === 'cookie' ? '; ' : ', '}${raw[i + 1]}`);
  }
  return [...joined];
}

/**
 * The writing thread's side: a server on the door. A connection that starts with the pipe's
 * preamble and the token is a client's, passed on whole: `server` (the writing thread's own)
 * serves it as if it had accepted it, with the client's address. Any other is a request thread's
 * own: each request (or upgrade) on it carrying the token goes to `app` (or to `server`'s upgrade
 * listeners) with its client's address. Anything else is ended at once.
 */
export async function openDoor(door: Door, app: RequestListener, server: Server): Promise<{ close(): Promise<void> }> {
  const token = Buffer.from(door.token);
  const tokenMatches = (given: string) => {
    const presented = Buffer.from(given);
    return presented.length === token.length && timingSafeEqual(presented, token);
  };
  const admitted = (req: IncomingMessage): boolean => {
    const given = req.headers[TOKEN_HEADER];
    const address = req.headers[ADDRESS_HEADER];
    if (typeof given !== 'string' || typeof address !== 'string' || !tokenMatches(given)) return false;
    // The token is the process's secret: nothing past the door (a log, a span, a handler) sees it.
    delete req.headers[TOKEN_HEADER];
    delete req.headers[ADDRESS_HEADER];
    req.rawHeaders = passedOn(req.rawHeaders, false);
    (req as ForwardedRequest)[FORWARDED_ADDRESS] = address;
    return true;
  };
  const handedOver = createServer({ requestTimeout: 0, keepAliveTimeout: 0 }, (req, res) => {
    if (admitted(req)) {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (name, value) =>
        name.toLowerCase() === 'connection' && String(value).toLowerCase() === 'close'
          ? setHeader(CLOSE_HEADER, '1')
          : setHeader(name, value);
      return app(req, res);
    }
    res.writeHead(403).end();
    req.socket.destroy();
  });
  handedOver.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!admitted(req)) return void socket.destroy();
    server.emit('upgrade', req, socket, head);
  });

  /** A client's connection passed on whole: served by `server` as its own, as coming from `address`. */
  function takePiped(socket: Socket, address: string, rest: Buffer): void {
    // What Koa, the access log and the limits read as the client's address (ctx.ip), as on the thread that accepted it.
    Object.defineProperty(socket, 'remoteAddress', { value: address, configurable: true });
    Object.defineProperty(socket, 'remoteFamily', { value: isIP(address) === 6 ? 'IPv6' : 'IPv4', configurable: true });
    (socket as Socket & { [COUNTED_ELSEWHERE]?: true })[COUNTED_ELSEWHERE] = true;
    if (rest.length > 0) socket.unshift(rest);
    server.emit('connection', socket);
    socket.resume();
  }

  /** Every connection to the door, so that closing it ends them, piped ones included. */
  const open = new Set<Socket>();
  // Half open as a connection an HTTP server accepts itself (Node's http servers are): its server decides what a client's end means.
  const entrance = createNetServer({ allowHalfOpen: true }, (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    onFirstLine(socket, DOOR_FIRST_LINE_MS, (line = '', read) => {
      if (line.startsWith(`${PIPE_PREAMBLE} `)) {
        const [, given = '', address = ''] = line.split(' ');
        if (!tokenMatches(given) || isIP(address) === 0) return void socket.destroy();
        return takePiped(socket, address, read.subarray(line.length + 2));
      }
      socket.unshift(read);
      handedOver.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => entrance.once('error', reject).listen({ path: door.path }, resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        entrance.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
