// A bounded kernel send buffer for every connection. Linux sizes a socket's send buffer from its
// congestion window and lets it grow to 4 MiB: on loopback, where segments are 64 KiB, a reader
// that takes nothing pins about 2 MiB of the host's memory from its first request, outside the
// process (measured: 1,000 such readers of one large file, 2,182 MiB). Set on the listening
// socket, the size is inherited by every connection it accepts, so one call bounds them all.
// Node has no API for SO_SNDBUF on TCP (nodejs/node#65022 is still open); `sockopt` is the
// setsockopt(2) call, prebuilt for Linux and macOS.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { Logger } from '@eventide/kernel/log.ts';

const SOL_SOCKET = { linux: 1, darwin: 0xffff } as const;
const SO_SNDBUF = { linux: 7, darwin: 0x1001 } as const;

type SetSockOpt = (socket: unknown, level: number, name: number, value: number) => void;
type GetSockOpt = (socket: unknown, level: number, name: number) => number;

function loadSockopt(): { setsockopt: SetSockOpt; getsockopt: GetSockOpt } | Error {
  try {
    return createRequire(import.meta.url)('sockopt');
  } catch (error) {
    return error as Error;
  }
}

/**
 * Asks the kernel for a send buffer of `bytes` on the listening server's connections (Linux
 * doubles it for its bookkeeping), and answers what it took; 0 leaves the kernel's own sizing.
 * Where it cannot be set (no prebuilt `sockopt` for the platform), it says so and goes on.
 */
export function boundSendBuffer(server: Server, bytes: number, log: Logger): number | undefined {
  if (bytes === 0) return undefined;
  const platform = process.platform === 'linux' || process.platform === 'darwin' ? process.platform : undefined;
  const sockopt = loadSockopt();
  if (platform === undefined || sockopt instanceof Error) {
    log.warn(
      { platform: process.platform, reason: sockopt instanceof Error ? sockopt.message : 'unsupported platform' },
      'HTTP_SEND_BUFFER_BYTES cannot be applied here: each connection keeps the kernel-sized send buffer',
    );
    return undefined;
  }
  sockopt.setsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform], bytes);
  return sockopt.getsockopt(server, SOL_SOCKET[platform], SO_SNDBUF[platform]);
}
