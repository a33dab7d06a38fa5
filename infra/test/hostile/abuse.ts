// One round of abuse of a running process, as the memory test and the benchmark give it: fuzzed
// requests from many addresses, a burst of concurrent sign-ins (real scrypt) and a collab flood of
// stale ops from several editors of one document.
import fc from 'fast-check';
import { PasswordHasher } from '@eventide/platform/auth/hasher.ts';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { until } from '@eventide/testing/wait.ts';
import { rawClient, type RawClient } from '@eventide/testing/collab/raw-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startFullApp } from '../full-app.ts';
import { requestsFor, send, type Route, type Targets } from './fuzz.ts';

export interface AbuseSize {
  /** Fuzzed requests a round, IN_FLIGHT at a time. */
  requests: number;
  /** Concurrent sign-ins with a wrong password a round. */
  signIns: number;
  /** Editors flooding one document a round, each with `ops` stale ops. */
  editors: number;
  ops: number;
}

export const ABUSE_ROUND: AbuseSize = { requests: 3000, signIns: 40, editors: 5, ops: 100 };
const IN_FLIGHT = 20;

export interface Abuser {
  /** One round of every kind of abuse; `round` names the round's flooded document. */
  round(round: number): Promise<void>;
}

/** Prepares abuse of the process at `url`: every route it serves (read from an in-process app), and a signed-in user's cookie to fuzz with. */
export async function abuserOf(url: string, size: AbuseSize = ABUSE_ROUND): Promise<Abuser> {
  // The routes the app serves, read from an in-process app, so that every route is fuzzed.
  const routeSource = await startFullApp({ collab: true, hasher: new PasswordHasher({ params: { logN: 10, r: 8, p: 1 } }) });
  const routes: Route[] = routeSource.routes;
  await routeSource.close();
  const user = jsonClient(url);
  await signUp(user);
  const targets: Targets = {
    users: [crypto.randomUUID()],
    products: [crypto.randomUUID()],
    orders: [crypto.randomUUID()],
    documents: ['fuzzed'],
    cookies: [user.cookieHeader()],
    secrets: [],
  };
  let addresses = 0;
  const nextAddress = () => `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses++ & 255}`;

  async function fuzz(): Promise<void> {
    const requests = fc.sample(requestsFor(routes, targets), size.requests);
    for (let i = 0; i < requests.length; i += IN_FLIGHT) {
      await Promise.all(
        requests.slice(i, i + IN_FLIGHT).map((request) => {
          // Keep the user's session: a fuzzed sign-out would end every later request's reach.
          if (/^\/auth\/(sign-out|password)/.test(request.path)) delete request.headers.cookie;
          request.headers['x-forwarded-for'] = nextAddress();
          return send(url, request);
        }),
      );
    }
  }

  async function signInBurst(): Promise<void> {
    const address = nextAddress();
    await Promise.all(
      Array.from({ length: size.signIns }, (_, i) =>
        jsonClient(url).request(
          'POST',
          '/auth/sign-in',
          { email: `spray-${address}-${i}@example.test`, password: 'a wrong password' },
          { 'X-Forwarded-For': address },
        ),
      ),
    );
  }

  async function collabFlood(round: number): Promise<void> {
    const owner = jsonClient(url);
    await signUp(owner);
    const editors: RawClient[] = [];
    try {
      for (let e = 0; e < size.editors; e++) editors.push(await rawClient(url, owner.cookieHeader()));
      const [creator] = editors;
      const doc = `memory-${round}`;
      creator!.send({
        a: 'op',
        c: 'documents',
        d: doc,
        v: 0,
        src: creator!.id,
        seq: 1,
        create: { type: 'http://sharejs.org/types/rich-text/v1', data: [] },
      });
      await creator!.reply((m) => m.a === 'op' && m.seq === 1, 'the flooded document');
      for (const editor of editors) {
        for (let seq = 2; seq < size.ops + 2; seq++)
          editor.send({ a: 'op', c: 'documents', d: doc, v: 1, src: editor.id, seq, op: [{ insert: 'x' }] });
      }
      const answered = (editor: RawClient) =>
        editor.inbox.filter((m) => m.a === 'op' && m.src === editor.id && (m.error !== undefined || !('op' in m))).length;
      await until(
        () => editors.every((editor) => answered(editor) >= size.ops || editor.closed !== undefined),
        'every flooded op to be answered',
        120_000,
      );
    } finally {
      for (const editor of editors) editor.socket.close();
    }
  }

  return {
    async round(round) {
      await fuzz();
      await signInBurst();
      await collabFlood(round);
    },
  };
}
