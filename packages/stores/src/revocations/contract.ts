// The contract every RevocationFeed adapter passes. Two feeds opened on one store stand for two
// processes sharing it.
import { describe, expect, it } from 'vitest';
import { until } from '@eventide/testing/wait.ts';
import type { Revocation, RevocationFeed } from './port.ts';

export interface RevocationHarness {
  /** A feed as one more process would open it, on the same store. */
  open(): Promise<RevocationFeed>;
  dispose(): Promise<void>;
}

export function revocationFeedContract(name: string, harness: () => Promise<RevocationHarness>): void {
  describe(`RevocationFeed contract: ${name}`, () => {
    async function withFeeds(body: (open: () => Promise<RevocationFeed>) => Promise<void>) {
      const h = await harness();
      const opened: RevocationFeed[] = [];
      try {
        await body(async () => {
          const feed = await h.open();
          opened.push(feed);
          return feed;
        });
      } finally {
        for (const feed of opened) await feed.close();
        await h.dispose();
      }
    }

    it('tells this process’s listeners before publish returns', () =>
      withFeeds(async (open) => {
        const feed = await open();
        const heard: Revocation[] = [];
        feed.subscribe((r) => heard.push(r));
        await feed.publish({ type: 'session', session: 'k1' });
        expect(heard).toEqual([{ type: 'session', session: 'k1' }]);
      }));

    it('tells another process of each revocation once, in order', () =>
      withFeeds(async (open) => {
        const [publisher, subscriber] = [await open(), await open()];
        const heard: Revocation[] = [];
        const heardHere: Revocation[] = [];
        subscriber.subscribe((r) => heard.push(r));
        publisher.subscribe((r) => heardHere.push(r));
        const sent: Revocation[] = [
          { type: 'user', userId: 'u1' },
          { type: 'session', session: 'k2' },
          { type: 'document-access', document: 'notes', userId: 'u2' },
        ];
        for (const r of sent) await publisher.publish(r);
        await until(() => heard.length >= sent.length, 'the other process to hear every revocation');
        expect(heard).toEqual(sent);
        // Its own are not heard twice, however long one waits for the next poll.
        await subscriber.publish({ type: 'user', userId: 'u3' });
        await until(() => heardHere.length === 4, 'the first process to hear the other’s');
        expect(heardHere).toEqual([...sent, { type: 'user', userId: 'u3' }]);
        expect(heard).toEqual([...sent, { type: 'user', userId: 'u3' }]);
      }));

    it('tells nothing from before a listener subscribed, and nothing after it left', () =>
      withFeeds(async (open) => {
        const [publisher, subscriber] = [await open(), await open()];
        await publisher.publish({ type: 'user', userId: 'before' });
        const heard: Revocation[] = [];
        const leave = subscriber.subscribe((r) => heard.push(r));
        await publisher.publish({ type: 'user', userId: 'during' });
        await until(() => heard.length === 1, 'the revocation made while subscribed');
        leave();
        await publisher.publish({ type: 'user', userId: 'after' });
        // A marker through a fresh listener shows the feed has moved past "after".
        const marker: Revocation[] = [];
        subscriber.subscribe((r) => marker.push(r));
        await publisher.publish({ type: 'user', userId: 'marker' });
        await until(() => marker.length === 1, 'the marker');
        expect(heard).toEqual([{ type: 'user', userId: 'during' }]);
      }));
  });
}
