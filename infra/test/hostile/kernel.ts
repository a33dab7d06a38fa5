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

interface TcpEntry {
  localPort: number;
  remotePort: number;
  state: number;
  sendQueue: number;
  receiveQueue: number;
}

/** Every TCP socket in the kernel's tables (IPv4 and IPv6). */
function* tcpTable(): Generator<TcpEntry> {
  const port = (address: string) => Number.parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, remote, state, queues] = line.trim().split(/\s+/);
      if (!local || !remote || !state || !queues) continue;
      const [sendQueue = '0', receiveQueue = '0'] = queues.split(':');
      yield {
        localPort: port(local),
        remotePort: port(remote),
        state: Number.parseInt(state, 16),
        sendQueue: Number.parseInt(sendQueue, 16),
        receiveQueue: Number.parseInt(receiveQueue, 16),
      };
    }
  }
}

/**
 * The server's open connections on `port` (its listening socket left out), read from the kernel's
 * tables: a connection reset by the server is gone from them whether or not its client has looked.
 */
export function connectionsOf(port: number): ServerConnection[] {
  return [...tcpTable()]
    .filter((entry) => entry.localPort === port && entry.state !== LISTEN)
    .map((entry) => ({ sendQueue: entry.sendQueue, established: entry.state === ESTABLISHED }));
}

/** Bytes waiting in the receive queues of clients' connections to `port`: what readers that take nothing hold on their side. */
export function clientReceiveQueueBytes(port: number): number {
  let total = 0;
  for (const entry of tcpTable()) if (entry.remotePort === port) total += entry.receiveQueue;
  return total;
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

/**
 * The memory the processes hold between them, in MiB: each one's proportional share (Pss) of
 * what it maps, so that pages the processes share (nginx's workers and their master) count once.
 */
export function proportionalMiB(processIds: readonly number[]): number {
  let kib = 0;
  for (const id of processIds) kib += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${id}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  return kib / 1024;
}
