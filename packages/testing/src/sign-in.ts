// Signed-in clients of a running site, over its HTTP API as a person would sign in: for tests,
// the benchmark and the load tool. (An admin is made as the CLI makes one: the command service's
// own testing/admin.ts.)
import { jsonClient, type JsonClient } from './json-client.ts';

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
