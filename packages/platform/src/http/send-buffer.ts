// A bounded kernel send buffer for every connection. Linux sizes a socket's send buffer from its
// congestion window and lets it grow to 4 MiB: on loopback, where segments are 64 KiB, a reader
// that takes nothing pins about 2 MiB of the host's memory from its first request, outside the
// process (measured: 1,000 such readers of one large file, 2,182 MiB). Set on the listening
// socket, the size is inherited by every connection it accepts, so one call bounds them all.
// Node has no API for SO_SNDBUF on TCP (nodejs/node#65022 is still open); `sockopt` is the
// setsockopt(2) call, prebuilt for Linux and macOS.
import type { Server } from 'node:http';
import type { Logger } from '@eventide/kernel/log.ts';

const SOL_SOCKET = { linux: 1, darwin: 0xffff } as const;
const SO_SNDBUF = { linux: 7, darwin: 0x1001 } as const;

interface SockOpt {
  setsockopt(socket: unknown, level: number, name: number, value: number): void;
  getsockopt(socket: unknown, level: number, name: number): number;
}

/** What bounds a listening server's connections' send buffers; answers the size the kernel took. */
export type SendBufferBound = (server: Server) => number | undefined;

/**
 * Loads what sets the send buffer, before the server listens, so that it is set the moment the
 * server listens, before it accepts anyone. `bytes` 0 leaves the kernel's own sizing (Linux
 * doubles what is asked, for its bookkeeping). Where it cannot be set (no prebuilt `sockopt` for
 * the platform), it says so and the server goes on without.
 */
export async function sendBufferBound(bytes: number, log: Logger): Promise<SendBufferBound> {
  if (bytes === 0) return () => undefined;
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
      'HTTP_SEND_BUFFER_BYTES cannot be applied here: each connection keeps the kernel-sized send buffer',
    );
    return () => undefined;
  }
  const { setsockopt, getsockopt } = sockopt;
  return (server) => {
    setsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform], bytes);
    return getsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform]);
  };
}
