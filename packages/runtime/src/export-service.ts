// exportPersonalData (GET /users/{id}/export): a signed-in person downloads everything the system
// holds about them as one JSON document (docs/privacy.md#export); an admin may export anyone, for
// a request made by other means. The mount has checked who asks and spent the hourly export
// limit; the sections come from the services of this process (export.ts).
//
// What one export may cost is bounded, so that no one can spend the process's memory through it:
// the document is streamed with backpressure (the memory of one item, whatever the whole), one
// export per person runs at a time (in every process: the lease lives where the rate limits do),
// a few run at once in a process, each must be taken at a minimum rate (export-slots.ts: one
// taken more slowly is cut, and gives its place to a newcomer), and each is cut off at a deadline,
// so a reader that stalls or trickles does not hold its share.
import { Readable } from 'node:stream';
import { spend } from '@eventide/platform/auth/rate-limit.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { Service, ServiceFactory } from './compose.ts';
import { ExportSlots, type Slot } from './export-slots.ts';

/** How long one export may take to send; a lease not given back (a process that died) lapses then too. */
export const EXPORT_DEADLINE_SECONDS = 600;
/** What the stream holds ahead of the socket before it waits: pieces are read only as the client takes them. */
const STREAM_BUFFER_BYTES = 64 * 1024;
/** How long an export's rate is measured over, and how long a new one runs before it is judged. */
const RATE_WINDOW_MS = 10_000;

/** Counts each piece as the stream takes it: the stream reads only as the client takes what it has. */
async function* counted(pieces: AsyncIterable<string>, slot: Slot): AsyncGenerator<string> {
  for await (const piece of pieces) {
    slot.sent(Buffer.byteLength(piece));
    yield piece;
  }
}

export function personalDataExportService(): ServiceFactory<Service> {
  return async ({ auth: openAuth, personalData, config }) => {
    // Sessions (and so who may ask) come from the platform's auth, and the leases from its limiters.
    const { limiters } = await openAuth();
    const leases = limiters({ name: 'personal-data-export-running', points: 1, duration: EXPORT_DEADLINE_SECONDS });
    const slots = new ExportSlots({
      size: config.EXPORTS_AT_ONCE,
      minBytesPerSecond: config.EXPORT_MIN_BYTES_PER_SECOND,
      windowMs: RATE_WINDOW_MS,
    });
    return {
      api: {
        service: 'export' as const,
        handlers: {
          async exportPersonalData({ ctx, params, spend: spendLimit }) {
            const key = params.id;
            let leased = false;
            let slot: Slot | undefined;
            let body: Readable | undefined;
            let deadline: NodeJS.Timeout | undefined;
            const release = () => {
              slot?.release();
              clearTimeout(deadline);
              if (leased) void leases.delete(key).catch(() => undefined);
            };
            const cut = (why: string) => body?.destroy(new Error(`the export was cut off: ${why}`));
            try {
              // Each is taken before it is decided on, so that concurrent requests cannot all pass:
              // the person's lease where every process sees it, then a place in this process.
              leased = (await spend(leases, key)).ok;
              if (!leased) {
                throw problems.tooManyRequests('an export of this person’s data is being sent now; one runs at a time', {
                  'Retry-After': '30',
                });
              }
              slot = slots.take(cut);
              if (!slot) {
                throw problems.busy(
                  `${config.EXPORTS_AT_ONCE} exports are being sent now, each taken at ${config.EXPORT_MIN_BYTES_PER_SECOND} bytes a second or more, the most this server sends at once`,
                );
              }
              // The hourly budget is spent once the export has its place (limitSpent: by-handler):
              // told to come back while the places were held, a client loses nothing of it.
              await spendLimit('personal-data-export');
              body = Readable.from(counted(await personalData.exportOf(params.id), slot), {
                objectMode: false,
                highWaterMark: STREAM_BUFFER_BYTES,
              });
              deadline = setTimeout(() => cut(`it was not taken within ${EXPORT_DEADLINE_SECONDS} s`), EXPORT_DEADLINE_SECONDS * 1000);
              // Whether it ended, failed or the client left, the stream closes once: then both go.
              body.once('close', release);
              ctx.type = 'application/json';
              ctx.set('Content-Disposition', `attachment; filename="personal-data-${params.id}.json"`);
              ctx.set('Cache-Control', 'no-store');
              ctx.body = body;
            } catch (error) {
              release();
              throw error;
            }
          },
        },
      },
      health: () => ({ exportsRunning: slots.running }),
      close: async () => slots.close(),
    };
  };
}
