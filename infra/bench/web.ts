// The web app's first load in headless Chromium against `npm start`'s process: bytes over the
// wire (the page, its script and style, compressed as served) and the time from navigation to
// the first product on screen, cold cache each time. The floor is a static page of the same
// server with no script (/docs/versioning), loaded the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { jsonClient } from '@eventide/testing/json-client.ts';
import { chromiumAvailable, launchChromium } from '../test/browser.ts';
import { grantAdmin, startService } from '../test/process.ts';

export interface WebResult {
  loads: number;
  appBytes: number;
  scriptBytes: number;
  appP50: number;
  floorBytes: number;
  floorP50: number;
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function load(browser: Browser, url: string, ready: string): Promise<{ ms: number; bytes: number; scriptBytes: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(ready).first().waitFor();
  const measured = await page.evaluate(() => {
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ] as PerformanceResourceTiming[];
    return {
      ms: performance.now(),
      bytes: entries.reduce((sum, e) => sum + e.transferSize, 0),
      scriptBytes: entries.filter((e) => e.name.endsWith('.js')).reduce((sum, e) => sum + e.transferSize, 0),
    };
  });
  await context.close();
  return measured;
}

export async function benchWeb(scale: number): Promise<WebResult | undefined> {
  if (!chromiumAvailable) return undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'eventide-bench-web-'));
  const service = await startService({ DATA_DIR: dataDir });
  const browser = await launchChromium();
  try {
    const admin = jsonClient(service.url);
    const credentials = { email: 'bench@example.com', password: 'a long passphrase' };
    await admin.request('POST', '/users', { name: 'Bench', ...credentials });
    await grantAdmin({ DATA_DIR: dataDir }, credentials.email);
    await admin.request('POST', '/auth/sign-in', credentials);
    for (let i = 0; i < 30; i++)
      await admin.request('POST', '/products', { name: `Product ${i}`, price: { amount: 100 + i, currency: 'EUR' } });
    const loads = Math.max(5, Math.round(15 * scale));
    const app: Array<{ ms: number; bytes: number; scriptBytes: number }> = [];
    const floor: Array<{ ms: number; bytes: number }> = [];
    // Alternated, so that a slow moment of the machine lands on both.
    for (let i = 0; i < loads; i++) {
      app.push(await load(browser, `${service.url}/`, '.card'));
      floor.push(await load(browser, `${service.url}/docs/versioning`, 'h1'));
    }
    return {
      loads,
      appBytes: app[0]!.bytes,
      scriptBytes: app[0]!.scriptBytes,
      appP50: p50(app.map((l) => l.ms)),
      floorBytes: floor[0]!.bytes,
      floorP50: p50(floor.map((l) => l.ms)),
    };
  } finally {
    await browser.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
