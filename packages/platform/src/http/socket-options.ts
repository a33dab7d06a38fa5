// What the kernel holds for each connection, bounded by two socket options set on the listening
// socket, which every connection it accepts inherits, so one call bounds them all. Node has no API
// for either on TCP (nodejs/node#65022 is still open); `sockopt` is the setsockopt(2) call,
// prebuilt for Linux and macOS.
//
// - SO_SNDBUF: Linux sizes a socket's send buffer from its congestion window and lets it grow to
//   4 MiB: on loopback, where segments are 64 KiB, a reader that takes nothing pinned about 2 MiB of
//   the host's memory from its first request, outside the process (1,000 such readers of one
//   large file: 2,182 MiB).
// - TCP_USER_TIMEOUT (Linux): how long sent data may go unacknowledged, zero-window probes
//   included, before the kernel aborts the connection. Progress or go (progress.ts) sees only what
//   the process still holds; once an answer's last bytes are in the kernel, a reader that takes
//   none of them would hold them, and after the process closes the connection an orphaned socket
//   would hold them as long as its probes are answered. This bounds both to the send timeout.
import type { Server } from 'node:http';
import type { Logger } from '@eventide/kernel/log.ts';

const SOL_SOCKET = { linux: 1, darwin: 0xffff } as const;
const SO_SNDBUF = { linux: 7, darwin: 0x1001 } as const;
const IPPROTO_TCP = 6;
const TCP_USER_TIMEOUT = 18;

interface SockOpt {
  setsockopt(socket: unknown, level: number, name: number, value: number): void;
  getsockopt(socket: unknown, level: number, name: number): number;
}

export interface SocketBounds {
  /** The send buffer asked for each connection (Linux keeps twice this); 0 leaves the kernel's own sizing. */
  sendBufferBytes: number;
  /** How long sent data may go unacknowledged before the kernel aborts the connection. */
  sendTimeoutMs: number;
}

/** What the kernel took: the send buffer it keeps, and the user timeout (Linux only); undefined where not set. */
export interface SocketOptionsSet {
  sendBuffer?: number;
  userTimeoutMs?: number;
}

/** Sets the bounds on a listening server's socket, before it accepts anyone; answers what the kernel took. */
export type SetSocketOptions = (server: Server) => SocketOptionsSet;

/**
 * Loads what sets the options, before the server listens, so that they are set the moment it
 * listens. Where they cannot be set (no prebuilt `sockopt` for the platform), it says so and the
 * server goes on without them.
 */
export async function socketOptions(bounds: SocketBounds, log: Logger): Promise<SetSocketOptions> {
  const platform = process.platform === 'linux' || process.platform === 'darwin' ? process.platform : undefined;
  let sockopt: SockOpt | undefined;
  let reason = 'unsupported platform';
  try {
    // A native addon: loaded when asked for, so that a platform without its prebuilt binary still starts.
    if (platform) sockopt = (await import('sockopt')).default as SockOpt;
  } catch (error) {
    reason = (error as Error).message;
  }
  if (!platform || !sockopt) {
    log.warn(
      { platform: process.platform, reason },
      'HTTP_SEND_BUFFER_BYTES and the kernel side of HTTP_SEND_TIMEOUT_MS cannot be applied here: each connection keeps the kernel-sized send buffer',
    );
    return () => ({});
  }
  const { setsockopt, getsockopt } = sockopt;
  return (server) => {
    const set: SocketOptionsSet = {};
    if (bounds.sendBufferBytes > 0) {
      setsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform], bounds.sendBufferBytes);
      set.sendBuffer = getsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform]);
    }
    if (platform === 'linux') {
      setsockopt(server, IPPROTO_TCP, TCP_USER_TIMEOUT, bounds.sendTimeoutMs);
      set.userTimeoutMs = getsockopt(server, IPPROTO_TCP, TCP_USER_TIMEOUT);
    }
    return set;
  };
}
