// Issue 44, case 7: every data file npm start writes (keys.db, which unseals personal data, among
// them) was created readable by every user of the machine (0644). Now each is the owner's alone,
// products' pictures too.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { signUp } from '@eventide/testing/sign-in.ts';
import { startTarget, type HostileTarget } from './service.ts';
import { picture } from '../pictures.ts';

let target: HostileTarget;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(() => target?.close());

function everything(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [path, ...everything(path)] : [path];
  });
}

describe('the data directory', () => {
  it('holds nothing another user of the machine may read: files 0600, directories 0700', async () => {
    // A write, so that every store has its WAL and shared-memory files too; and a product's picture.
    await signUp(jsonClient(target.url));
    const admin = await target.admin();
    const product = await admin.request('POST', '/products', { name: 'Lamp', price: { amount: 100, currency: 'EUR' } });
    const uploaded = await admin.raw('POST', `/products/${product.body.productId}/images`, await picture(64, 48), {
      'content-type': 'image/png',
    });
    expect(uploaded.status).toBe(201);
    const paths = everything(target.dataDir);
    expect(paths.map((p) => p.slice(target.dataDir.length + 1))).toEqual(
      expect.arrayContaining(['events.db', 'keys.db', 'sessions.db', 'read.db', 'images']),
    );
    const open = paths
      .filter((path) => (statSync(path).mode & 0o077) !== 0)
      .map((path) => `${path} ${(statSync(path).mode & 0o777).toString(8)}`);
    expect(open).toEqual([]);
  });
});
