// exportPersonalData (GET /users/{id}/export): a signed-in person downloads everything the system
// holds about them as one JSON document (docs/privacy.md#export); an admin may export anyone, for
// a request made by other means. The mount has checked who asks and spent the hourly export
// limit; the sections come from the services of this process (export.ts).
//
// What one export may cost is bounded, so that no one can spend the process's memory through it:
// the document is streamed with backpressure (the memory of one item, whatever the whole), one
// export per person runs at a time (in every process: the lease lives where the rate limits do),
// a few run at once in a process, and each is cut off at a deadline, so a reader that stalls
// does not hold its share for good.
import { Readable } from 'node:stream';
import { spend } from '@eventide/platform/auth/rate-limit.ts';
import { problems } from '@eventide/contract/problems.ts';
import type { Service, ServiceFactory } from './compose.ts';

/** How long one export may take to send; a lease not given back (a process that died) lapses then too. */
export const EXPORT_DEADLINE_SECONDS = 600;
/** What the stream holds ahead of the socket before it waits: pieces are read only as the client takes them. */
const STREAM_BUFFER_BYTES = 64 * 1024;

export function personalDataExportService(): ServiceFactory<Service> {
  return async ({ auth: openAuth, personalData, config }) => {
    // Sessions (and so who may ask) come from the platform's auth, and the leases from its limiters.
    const { limiters } = await openAuth();
    const leases = limiters({ name: 'personal-data-export-running', points: 1, duration: EXPORT_DEADLINE_SECONDS });
    let running = 0;
    return {
      api: {
        service: 'export' as const,
        handlers: {
          async exportPersonalData({ ctx, params }) {
            const key = params.id;
            let leased = false;
            let counted = false;
            let deadline: NodeJS.Timeout | undefined;
            const release = () => {
              if (counted) running--;
              clearTimeout(deadline);
              if (leased) void leases.delete(key).catch(() => undefined);
            };
            try {
              // Each is taken before it is decided on, so that concurrent requests cannot all pass:
              // the person's lease where every process sees it, then a place in this process.
              leased = (await spend(leases, key)).ok;
              if (!leased) {
                throw problems.tooManyRequests('an export of this person’s data is being sent now; one runs at a time', {
                  'Retry-After': '30',
                });
              }
              counted = true;
              if (++running > config.EXPORTS_AT_ONCE) {
                throw problems.busy(`${config.EXPORTS_AT_ONCE} exports are being sent now, the most this server sends at once`);
              }
              const body = Readable.from(await personalData.exportOf(params.id), { objectMode: false, highWaterMark: STREAM_BUFFER_BYTES });
              deadline = setTimeout(
                () => body.destroy(new Error(`the export was not taken within ${EXPORT_DEADLINE_SECONDS} s and was cut off`)),
                EXPORT_DEADLINE_SECONDS * 1000,
              );
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
      health: () => ({ exportsRunning: running }),
      close: async () => undefined,
    };
  };
}
