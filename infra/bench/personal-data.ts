// What sealing personal data costs (docs/privacy.md): the embedded event store with the sealing
// wrapper and its key store against the same store without them, in the same run, on the same
// disk and settings. Sign-ups: each is a new person, so each needs a new key (made durable before
// the event that uses it). Replay: reading a log of user events back, as a rebuild does; and the
// rebuild itself (the projector's replay into fresh read models), of a sealed log and a plain one.
import { join } from 'node:path';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { NewEvent } from '@eventide/kernel/events/recorded.ts';
import { openSqliteEventStore } from '@eventide/stores/event-store/sqlite.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { openSqliteKeyStore } from '@eventide/stores/key-store/sqlite.ts';
import { sealingEventStore } from '@eventide/stores/personal-data/event-store.ts';
import { openSqliteReadStore } from '@eventide/stores/read-store/sqlite.ts';
import { rebuild } from '@eventide/projector/src/rebuild.ts';
import { openSqliteParkedEvents } from '@eventide/stores/parked/sqlite.ts';
import { createLogger } from '@eventide/kernel/log.ts';

const metadata = { correlationId: 'bench', causationId: 'bench', actor: { type: 'anonymous' as const } };

function userCreated(userId: string): NewEvent {
  return { id: newId(), type: 'user:created', data: { userId, name: 'Ada Lovelace', email: `ada-${userId}@example.com` }, metadata };
}

export interface PersonalDataRow {
  name: string;
  /** Per second: sign-ups, or events read back. */
  sealed: number;
  plain: number;
}

interface Opened {
  store: EventStore;
  close(): Promise<void>;
}

function open(dir: string, name: string, synchronous: 'FULL' | 'NORMAL', sealed: boolean): Opened {
  const store = openSqliteEventStore({ path: join(dir, `${name}-events.db`), synchronous });
  if (!sealed) return { store, close: () => store.close() };
  const keys = openSqliteKeyStore(join(dir, `${name}-keys.db`));
  const sealing = sealingEventStore(store, keys);
  return {
    store: sealing,
    async close() {
      await sealing.close();
      await keys.close();
    },
  };
}

/** New users, each `user:created` on its own stream, from `concurrency` appenders at once. */
async function signUps(opened: Opened, users: number, concurrency: number): Promise<number> {
  const perWorker = Math.ceil(users / concurrency);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < perWorker; i++) {
        const userId = newId();
        await opened.store.append(`user-${userId}`, [userCreated(userId)], { expectedRevision: 'no_stream' });
      }
    }),
  );
  return (perWorker * concurrency) / ((performance.now() - started) / 1000);
}

/** The whole log read back in pages, as a rebuild reads it: events per second. */
async function replay(opened: Opened): Promise<number> {
  const started = performance.now();
  let after = 0;
  let read = 0;
  for (;;) {
    const page = await opened.store.readAll({ after, limit: 500 });
    if (page.length === 0) break;
    read += page.length;
    after = page[page.length - 1]!.position;
  }
  return read / ((performance.now() - started) / 1000);
}

export async function benchPersonalData(dir: string, scale: number): Promise<PersonalDataRow[]> {
  const users = Math.round(2000 * scale);
  const rows: PersonalDataRow[] = [];
  const both = async (name: string, measure: (sealed: boolean) => Promise<number>) => {
    // Alternating, plain first, so that neither side has the warmer disk throughout.
    const plain = await measure(false);
    const sealed = await measure(true);
    rows.push({ name, sealed, plain });
  };
  let n = 0;
  const fresh = (sealed: boolean, synchronous: 'FULL' | 'NORMAL') => open(dir, `pd-${n++}`, synchronous, sealed);
  const run = async (opened: Opened, body: (o: Opened) => Promise<number>) => {
    try {
      return await body(opened);
    } finally {
      await opened.close();
    }
  };
  await run(fresh(true, 'FULL'), (o) => signUps(o, 200, 1)); // warm the JIT and the disk
  await both('sign-ups at FULL, one at a time', (sealed) => run(fresh(sealed, 'FULL'), (o) => signUps(o, users, 1)));
  await both('sign-ups at FULL, 32 at once', (sealed) => run(fresh(sealed, 'FULL'), (o) => signUps(o, users * 4, 32)));
  // One log of user events, written sealed, replayed through the sealing store and through the
  // store alone (which reads the sealed fields as they are, as the plain side of the comparison).
  const name = `pd-replay`;
  const writer = open(dir, name, 'NORMAL', true);
  await signUps(writer, users * 25, 32);
  await writer.close();
  await both('replay of a log of user events', (sealed) => run(open(dir, name, 'NORMAL', sealed), replay));
  // The projector's replay: the sealed log through the sealing store, against the same users
  // written plain and replayed through the store alone, each into fresh read models.
  const plainName = 'pd-replay-plain';
  const plainWriter = open(dir, plainName, 'NORMAL', false);
  await signUps(plainWriter, users * 25, 32);
  await plainWriter.close();
  let readModels = 0;
  await both('projection replay (rebuild) of a log of user events', (sealed) =>
    run(open(dir, sealed ? name : plainName, 'NORMAL', sealed), async (o) => {
      const readStore = openSqliteReadStore(join(dir, `pd-read-${readModels++}.db`));
      try {
        const done = await rebuild({
          eventStore: o.store,
          readStore,
          parked: openSqliteParkedEvents(':memory:'),
          log: createLogger({ level: 'silent' }),
        });
        return done.eventsPerSecond;
      } finally {
        await readStore.close();
      }
    }),
  );
  return rows;
}
