// `npm run admin -- grant <email>`, `npm run admin -- revoke <email>`: who is an admin;
// `npm run admin -- erase <email or user id>`: forget a user (docs/privacy.md);
// `npm run admin -- seal-existing`: seal what an embedded store written before sealing holds in
// clear (docs/privacy.md#a-store-written-before-sealing). It writes to the configured event store
// (the same DATA_DIR or EVENTSTORE_URL as the server, which may be running) and ends the user's
// sessions, so a role change applies at their next sign-in.
import { join } from 'node:path';
import { openAuth } from '@eventide/platform/auth/open.ts';
import { loadConfig } from '@eventide/kernel/config.ts';
import { openEventStore } from '@eventide/stores/personal-data/open.ts';
import { openSqliteMaintenance } from '@eventide/stores/event-store/sqlite-maintenance.ts';
import { isUuid, newId } from '@eventide/kernel/ids.ts';
import { isRefusal } from '@eventide/kernel/models/refusal.ts';
import { sealExisting } from './seal-existing.ts';
import { writeSide } from './write-side.ts';

const USAGE = 'usage: npm run admin -- grant <email> | revoke <email> | erase <email or user id> | seal-existing';
const ACTIONS = ['grant', 'revoke', 'erase'] as const;
const [action, who] = process.argv.slice(2) as [string | undefined, string | undefined];
const config = loadConfig();

if (action === 'seal-existing') await sealExistingStore();
else if (action && (ACTIONS as readonly string[]).includes(action) && who) await manageUser(action as (typeof ACTIONS)[number], who);
else {
  console.error(USAGE);
  process.exitCode = 2;
}

async function manageUser(action: (typeof ACTIONS)[number], who: string): Promise<void> {
  const { store, keys } = await openEventStore(config);
  const auth = await openAuth(config);
  try {
    // The same use cases the API runs (identity/identity.ts), acting as the system.
    const { identity } = writeSide({ config, store, keys, auth: { sessions: auth.sessions.store, limiters: auth.limiters } });
    const caller = { metadata: { correlationId: newId(), actor: { type: 'system' as const, name: 'admin-cli' } } };
    // A deleted user has no address any more: they are found by id.
    const user = isUuid(who) && action === 'erase' ? { userId: who } : await identity.userByEmail(who);
    if (!user) {
      console.error(
        `no active user has the email ${who}${action === 'erase' ? '; a deleted one is erased by user id' : '; sign up first (POST /users)'}`,
      );
      process.exitCode = 1;
    } else if (action === 'erase') {
      const erased = await identity.erase(user.userId, caller).catch((error: unknown) => {
        if (isRefusal(error, 'not-found')) return undefined;
        throw error;
      });
      const said = !erased ? 'is no user' : erased.erased ? 'is erased: deleted, signed out, key destroyed' : 'was erased already';
      console.log(`${user.userId} ${said}`);
      if (!erased) process.exitCode = 1;
    } else {
      const changed = await identity.setRole(user.userId, 'admin', action === 'grant', caller);
      console.log(
        `${user.userId} (${who}) ${changed ? (action === 'grant' ? 'is now an admin' : 'is no longer an admin') : 'was already so'}`,
      );
    }
  } finally {
    await store.close();
    await auth.close();
  }
}

async function sealExistingStore(): Promise<void> {
  if (config.EVENTSTORE_URL || config.DATABASE_URL) {
    console.error(
      `seal-existing rewrites the embedded store only: ${config.EVENTSTORE_URL ? 'EventStoreDB keeps every event as written, so events it holds in clear stay so' : 'a PostgreSQL store is written sealed from its first event'} (docs/privacy.md#a-store-written-before-sealing)`,
    );
    process.exitCode = 2;
    return;
  }
  // Opening the store creates what a store of an older version lacks (the snapshots table).
  const { store, keys } = await openEventStore(config);
  const maintenance = openSqliteMaintenance(join(config.dataDir, 'events.db'));
  try {
    const report = await sealExisting(maintenance, keys);
    console.log(
      [
        `sealed ${report.sealed} events of ${report.people} people under their keys`,
        `sealed ${report.forgotten} events of ${report.deletedPeople} deleted or forgotten people under no key: they read as forgotten`,
        `gave ${report.renamedClaims} claim streams keyed names, and ${report.retiredClaims} of deleted people random ones`,
        `dropped ${report.droppedSnapshots} snapshots kept in clear`,
        report.deletedPeople > 0
          ? 'next: npm run rebuild, so that the read models drop what they kept of deleted people'
          : 'the read models need nothing',
      ].join('\n'),
    );
  } finally {
    maintenance.close();
    await store.close();
  }
}
