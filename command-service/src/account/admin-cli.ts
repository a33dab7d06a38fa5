// `npm run admin -- grant <email>`, `npm run admin -- revoke <email>`: who is an admin;
// `npm run admin -- erase <email or user id>`: forget a user (docs/privacy.md). It writes to the
// configured event store (the same DATA_DIR or EVENTSTORE_URL as the server, which may be running)
// and ends the user's sessions, so a role change applies at their next sign-in.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { isUuid } from '@eventide/shared/ids.ts';
import { eraseUser } from '../user/erase.ts';
import { userByEmail } from './directory.ts';
import { setRole } from './roles.ts';

const ACTIONS = ['grant', 'revoke', 'erase'] as const;
const [action, who] = process.argv.slice(2) as [(typeof ACTIONS)[number] | undefined, string | undefined];
if (!action || !ACTIONS.includes(action) || !who) {
  console.error('usage: npm run admin -- grant <email> | revoke <email> | erase <email or user id>');
  process.exit(2);
}
const config = loadConfig();
const { store, keys } = await openEventStore(config);
const auth = await openAuth(config);
try {
  // A deleted user has no address any more: they are found by id.
  const user = isUuid(who) && action === 'erase' ? { userId: who } : await userByEmail(store, keys, who);
  if (!user) {
    console.error(
      `no active user has the email ${who}${action === 'erase' ? '; a deleted one is erased by user id' : '; sign up first (POST /users)'}`,
    );
    process.exitCode = 1;
  } else if (action === 'erase') {
    const outcome = await eraseUser({ store, keys, sessions: auth.sessions.store }, user.userId, 'admin-cli');
    const said = { erased: 'is erased: deleted, signed out, key destroyed', 'already-erased': 'was erased already', unknown: 'is no user' };
    console.log(`${user.userId} ${said[outcome]}`);
    if (outcome === 'unknown') process.exitCode = 1;
  } else {
    const changed = await setRole(store, auth.sessions.store, user.userId, 'admin', action === 'grant', 'admin-cli');
    console.log(
      `${user.userId} (${who}) ${changed ? (action === 'grant' ? 'is now an admin' : 'is no longer an admin') : 'was already so'}`,
    );
  }
} finally {
  await store.close();
  await auth.close();
}
