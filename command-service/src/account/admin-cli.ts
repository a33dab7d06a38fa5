// `npm run admin -- grant <email>` and `npm run admin -- revoke <email>`: who is an admin. It
// writes to the configured event store (the same DATA_DIR or EVENTSTORE_URL as the server,
// which may be running) and ends the user's sessions, so the change applies at their next
// sign-in.
import { openAuth } from '@eventide/shared/auth/open.ts';
import { loadConfig } from '@eventide/shared/config.ts';
import { openEventStore } from '@eventide/shared/event-store/open.ts';
import { userByEmail } from './directory.ts';
import { setRole } from './roles.ts';

const [action, email] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('usage: npm run admin -- grant <email> | revoke <email>');
  process.exit(2);
}
const config = loadConfig();
const { store } = await openEventStore(config);
const auth = await openAuth(config);
try {
  const user = await userByEmail(store, email);
  if (!user) {
    console.error(`no active user has the email ${email}; sign up first (POST /users)`);
    process.exitCode = 1;
  } else {
    const changed = await setRole(store, auth.sessions.store, user.userId, 'admin', action === 'grant', 'admin-cli');
    console.log(
      `${user.userId} (${email}) ${changed ? (action === 'grant' ? 'is now an admin' : 'is no longer an admin') : 'was already so'}`,
    );
  }
} finally {
  await store.close();
  await auth.close();
}
