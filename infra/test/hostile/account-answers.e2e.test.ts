// Issue 44, case 6: whether an email has an account was answered by three channels, each limited
// on its own (sign-ups per address, changes of address and share lookups per user). Accounts are
// cheap, so one address that made a few got ~1,300 such answers an hour where docs/auth.md
// promises 20. Now every channel also spends from one budget per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient, type JsonClient } from '@eventide/testing/json-client.ts';
import { startTarget, type HostileTarget } from './service.ts';

const BUDGET = 12;

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget({
    RATE_LIMIT_ACCOUNT_ANSWERS_PER_HOUR: String(BUDGET),
    // Every channel's own limit far above the shared one: only the shared one can bind here.
    RATE_LIMIT_SIGN_UPS_PER_HOUR: '1000',
    RATE_LIMIT_EMAIL_CHANGES_PER_HOUR: '1000',
    COLLAB_SHARE_LOOKUPS_PER_HOUR: '1000',
  });
});
afterAll(() => target?.close());

/** A client whose every request comes from `address` (the target trusts one proxy hop). */
function from(address: string): Pick<JsonClient, 'request'> {
  const client = jsonClient(target.url);
  return { request: (method, path, body, headers = {}) => client.request(method, path, body, { ...headers, 'X-Forwarded-For': address }) };
}

describe('answers that tell whether an email has an account', { timeout: 120_000 }, () => {
  it(`are ${BUDGET} an hour for one address, however many accounts it makes and whichever channel it asks`, async () => {
    const victim = 'victim@example.test';
    expect(
      (await from('198.51.100.1').request('POST', '/users', { name: 'Victim', email: victim, password: 'a long passphrase' })).status,
    ).toBe(201);

    const attacker = '203.0.113.9';
    const statuses: number[] = [];
    const ask = async (client: Pick<JsonClient, 'request'>, method: string, path: string, body: unknown) => {
      const reply = await client.request(method, path, body);
      statuses.push(reply.status);
      return reply;
    };
    for (let account = 0; account < 4; account++) {
      const client = from(attacker);
      const signedUp = await ask(client, 'POST', '/users', {
        name: `Prober ${account}`,
        email: `prober-${account}@example.test`,
        password: 'a long passphrase',
      });
      if (signedUp.status !== 201) continue;
      const document = await client.request('POST', '/collab/documents', { title: 'Probe' });
      for (let i = 0; i < 4; i++) {
        await ask(client, 'POST', `/collab/documents/${document.body.id}/editors`, { email: victim });
        await ask(client, 'PATCH', `/users/${signedUp.body.userId}`, { email: victim });
      }
    }
    const answered = statuses.filter((status) => status !== 429);
    expect(answered.length).toBe(BUDGET);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    // Another address has a budget of its own.
    expect((await from('198.51.100.2').request('POST', '/users', { name: 'Other', email: 'other@example.test' })).status).toBe(201);
    console.log(`account answers: ${statuses.length} asked from one address over 3 channels and 4 accounts, ${answered.length} answered`);
  });

  it('gives back the memory the abuse took, within a minute', () => target.memoryReturns(), 90_000);
});
