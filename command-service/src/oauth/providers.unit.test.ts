// A provider's name becomes a path (/auth/{name}): one that is already a path of the route table
// under /auth would be shadowed by it, or shadow it, so configuration refuses it.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@eventide/contract/operations.ts';
import { loadProviders } from './providers.ts';

const github = { type: 'github', clientId: 'id', clientSecret: 'secret' };

describe('AUTH_PROVIDERS', () => {
  it.each(['sign-in', 'identities', 'callback'])('refuses a provider named %s, a path of its own under /auth', (name) => {
    expect(() => loadProviders(JSON.stringify({ [name]: github }))).toThrow(`"${name}" is a path of its own under /auth`);
  });

  it('refuses every literal path under /auth that the route table has, and takes other names', () => {
    const literals = Object.values(OPERATIONS).flatMap(({ path }) => /^\/auth\/([a-z-]+)(\/|$)/.exec(path)?.[1] ?? []);
    expect(literals.length).toBeGreaterThan(5);
    for (const name of literals) expect(() => loadProviders(JSON.stringify({ [name]: github })), name).toThrow(/path of its own/);
    expect([...loadProviders(JSON.stringify({ acme: github })).keys()]).toEqual(['acme']);
  });
});
