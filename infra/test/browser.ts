// Debian's Chromium driven by playwright-core, for the tests that look at pages as people do.
// Screenshots go to infra/test/artifacts/ (git-ignored), to be looked at after a run.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { reportReply } from '@eventide/testing/json-client.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The machine's network is closed: without these, Chromium keeps trying to reach Google.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const ARTIFACTS = fileURLToPath(new URL('artifacts/', import.meta.url));

/** Keeps what the page shows now, under a name that says which journey and step. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/**
 * Shows every answer the page gets from `origin` to the tests' observers (reportReply), so that
 * what the web app and the editor receive is checked against /openapi.json like any other reply.
 */
export function reportAnswers(page: Page, origin: string): void {
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.origin !== origin || response.request().resourceType() === 'websocket') return;
    // A redirect, or a page closed meanwhile, has no body to read.
    const text = await response.text().catch(() => undefined);
    if (text === undefined) return;
    reportReply({
      request: { method: response.request().method(), path: url.pathname + url.search },
      status: response.status(),
      headers: new Headers(response.headers()),
      text,
    });
  });
}
