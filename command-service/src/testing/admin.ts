// Admins for the command service's tests: made as the CLI makes one, on the service's own stores.
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import type { JsonClient } from '@eventide/testing/json-client.ts';
import { signInWithPassword, signUp, type SignedIn } from '@eventide/testing/sign-in.ts';
import { roles } from '../identity/roles.ts';

/** Signs the client up, makes the user an admin as the CLI would, and signs in again. */
export async function signUpAdmin(client: JsonClient, store: EventStore, sessions: SessionStore): Promise<SignedIn> {
  const admin = await signUp(client, { name: 'Admin' });
  await grantAdmin(store, sessions, admin.userId);
  await signInWithPassword(client, admin.email, admin.password);
  return admin;
}

/** Makes the user an admin, as the CLI does (their sessions end: the next sign-in carries the role). */
export const grantAdmin = (store: EventStore, sessions: SessionStore, userId: string) =>
  roles(store, sessions)(userId, 'admin', true, { metadata: { correlationId: 'test', actor: { type: 'system', name: 'test' } } });
