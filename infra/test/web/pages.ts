// What the web app's browser tests do on every site (sites.ts): open a page of it in a fresh
// browser context, its answers checked against /openapi.json and its errors failing the test, and
// sign someone up through the form.
import type { Browser, Page } from 'playwright-core';
import { reportAnswers } from '../browser.ts';

export interface Pages {
  /** A new page at `path` of the site, in a context of its own (no cookies). */
  open(path?: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** A new page, signed up (and so signed in) through the sign-up form with the password 'a long passphrase'. */
  signUp(name: string, email: string): Promise<Page>;
}

/**
 * A new page in a context holding the cookies of a client of the API (`cookieHeader`, as the
 * JSON client keeps them): signed in as whoever that client is, its answers checked as open's are.
 */
export async function pageWithCookies(
  browser: Browser,
  url: string,
  cookieHeader: string,
  viewport = { width: 1100, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const origin = new URL(url);
  await context.addCookies(
    cookieHeader.split('; ').map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), domain: origin.hostname, path: '/' };
    }),
  );
  const page = await context.newPage();
  reportAnswers(page, url);
  return page;
}

export function pagesOf(browser: () => Browser, url: () => string): Pages {
  async function open(path = '/', viewport = { width: 1100, height: 800 }): Promise<Page> {
    const page = await (await browser().newContext({ viewport })).newPage();
    reportAnswers(page, url());
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${url()}${path}`);
    return page;
  }
  async function signUp(name: string, email: string): Promise<Page> {
    const page = await open('/#/sign-up');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (at least 8 characters)').fill('a long passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    return page;
  }
  return { open, signUp };
}
