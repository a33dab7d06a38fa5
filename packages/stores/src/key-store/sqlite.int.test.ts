import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '@eventide/kernel/ids.ts';
import { keyStoreContract } from './contract.ts';
import { openSqliteKeyStore } from './sqlite.ts';

keyStoreContract('embedded SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eventide-keys-'));
  return {
    open: async () => openSqliteKeyStore(join(dir, 'keys.db')),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('embedded SQLite key store, beyond the contract', () => {
  it('leaves no copy of a forgotten key in any of its files, write-ahead log included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventide-keys-'));
    try {
      const store = openSqliteKeyStore(join(dir, 'keys.db'));
      const subjects = Array.from({ length: 50 }, () => newId());
      const keys = await Promise.all(subjects.map((s) => store.keyFor(s)));
      const [gone, kept] = [keys[7]!, keys[8]!];
      const files = () => readdirSync(dir).map((name) => readFileSync(join(dir, name)));
      expect(files().some((bytes) => bytes.includes(gone))).toBe(true);
      expect(await store.forget(subjects[7]!)).toBe('forgotten');
      expect(files().some((bytes) => bytes.includes(gone))).toBe(false);
      // What is not forgotten is still there.
      expect(files().some((bytes) => bytes.includes(kept))).toBe(true);
      await store.close();
      expect(files().some((bytes) => bytes.includes(gone))).toBe(false);
      const reopened = openSqliteKeyStore(join(dir, 'keys.db'));
      expect((await reopened.lookup([subjects[7]!])).get(subjects[7]!)?.state).toBe('forgotten');
      expect(await reopened.keyFor(subjects[8]!)).toEqual(kept);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
