// Pictures are made one at a time, and only a few wait their turn: more at once are refused as
// busy (503, Retry-After), not queued with their bodies in memory.
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { makePicture, MAX_WAITING } from './pictures.ts';

it('makes one picture at a time, lets a few wait, and refuses the rest as busy', async () => {
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c0392b' } })
    .png()
    .toBuffer();
  const settled = await Promise.allSettled(Array.from({ length: MAX_WAITING + 6 }, () => makePicture(png, 'image/png')));
  const made = settled.filter((s) => s.status === 'fulfilled');
  const refused = settled.flatMap((s) =>
    s.status === 'rejected' ? [s.reason as { status: number; headers?: Record<string, string> }] : [],
  );
  // The first is made at once, MAX_WAITING wait for it; the others were refused when they came.
  expect(made).toHaveLength(1 + MAX_WAITING);
  expect(refused.map((r) => [r.status, r.headers?.['Retry-After']])).toEqual(Array(5).fill([503, '1']));
  // Once the queue has drained, a picture is made again.
  await expect(makePicture(png, 'image/png')).resolves.toMatchObject({ image: { width: 800, height: 600 } });
});
