// What the kernel holds for a server's connections, read from Linux's /proc: memory that is the
// host's but not the process's, so its resident size never shows it.
import { readFileSync } from 'node:fs';

/** A connection the kernel keeps on the server's side: how many bytes wait in its send queue. */
export interface ServerConnection {
  sendQueue: number;
  /** ESTABLISHED, not closing: a connection the server closed with a FIN lingers in the tables until its client reads it. */
  established: boolean;
}

const LISTEN = 0x0a;
const ESTABLISHED = 0x01;

/**
 * The server's open connections on `port` (its listening socket left out), read from the kernel's
 * tables: a connection reset by the server is gone from them whether or not its client has looked.
 */
export function connectionsOf(port: number): ServerConnection[] {
  const found: ServerConnection[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (!local || !state || !queues) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) !== port || Number.parseInt(state, 16) === LISTEN) continue;
      found.push({ sendQueue: Number.parseInt(queues.split(':')[0] ?? '0', 16), established: Number.parseInt(state, 16) === ESTABLISHED });
    }
  }
  return found;
}

/** Bytes waiting in the send queues of the server's connections on `port`: what slow readers make its kernel hold. */
export function sendQueueBytes(port: number): number {
  return connectionsOf(port).reduce((sum, c) => sum + c.sendQueue, 0);
}

/** The host's available memory (MemAvailable), in MiB. */
export function hostAvailableMiB(): number {
  const kib = /^MemAvailable:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
  return Number(kib) / 1024;
}
