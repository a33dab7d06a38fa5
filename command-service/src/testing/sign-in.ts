// Test helpers for signed-in clients: a user signed up with a password, and an admin.
import type { SessionStore } from '@eventide/stores/session-store/port.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { jsonClient, type JsonClient } from '@eventide/platform/testing/json-client.ts';
import { roles } from '../identity/roles.ts';

export interface SignedIn {
  userId: string;
  email: string;
  password: string;
}

let counter = 0;

/** Signs the (anonymous) client up as a new user with a password; the answer signs it in. */
export async function signUp(client: JsonClient, who: { name?: string; email?: string; password?: string } = {}): Promise<SignedIn> {
  const n = ++counter;
  const email = who.email ?? `user-${n}-${process.pid}@example.test`;
  const password = who.password ?? `a long passphrase ${n}`;
  const reply = await client.request('POST', '/users', { name: who.name ?? `User ${n}`, email, password });
  if (reply.status !== 201) throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { userId: reply.body.userId, email, password };
}

/** A new user on a client of their own, signed in: a customer, for tests that need several. */
export async function signedInUser(url: string): Promise<JsonClient & SignedIn> {
  const client = jsonClient(url);
  const me = await signUp(client);
  await signInWithPassword(client, me.email, me.password);
  return Object.assign(client, me);
}

export async function signInWithPassword(client: JsonClient, email: string, password: string): Promise<void> {
  const reply = await client.request('POST', '/auth/sign-in', { email, password });
  if (reply.status !== 200) throw new Error(`sign-in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
}

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
