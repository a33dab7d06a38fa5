// A product's pictures end to end: an admin uploads them, the product lists them in order, each is
// served in its sizes as WebP and cached; and every bad upload is refused by what it is, before
// anything is written: too big, not a picture, a picture of another kind than it says, a few bytes
// that claim a huge picture, one too many.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, MAX_PICTURE_PIXELS } from '@eventide/kernel/entities/product-image-bounds.ts';
import { MAX_PRODUCT_IMAGES } from '@eventide/kernel/entities/product-image.ts';
import { startFullApp, type FullApp } from './full-app.ts';
import { MEDIA_TYPE, picture, pictureOf } from './pictures.ts';

let app: FullApp;
beforeAll(async () => {
  app = await startFullApp();
});
afterAll(() => app.close());

async function newProduct(): Promise<string> {
  const made = await app.write('POST', '/products', { name: `Lamp ${Date.now()}`, price: { amount: 4500, currency: 'EUR' } });
  expect(made.status).toBe(201);
  return made.body.productId;
}

const upload = (productId: string, bytes: Uint8Array, type: string, client: Pick<FullApp, 'raw'> = app) =>
  client.raw('POST', `/products/${productId}/images`, bytes, { 'content-type': type });

describe('product pictures', () => {
  it('adds pictures in order, serves each size as WebP without its metadata, and lets a change reorder them', async () => {
    const productId = await newProduct();
    const wide = await picture(2400, 1600, 'jpeg', { orientation: 6 });
    const first = await upload(productId, wide, 'image/jpeg');
    expect(first.status, first.text).toBe(201);
    // Turned upright as the camera said: a quarter turn makes it tall.
    expect(first.body.images).toEqual([{ imageId: expect.stringMatching(/^[0-9a-f]{32}$/), width: 1600, height: 2400 }]);
    const [{ imageId }] = first.body.images;
    expect(first.headers.get('location')).toBe(`/images/${imageId}/large`);
    const second = await upload(productId, await picture(300, 200, 'png'), 'image/png');
    expect(second.body.images.map((i: { imageId: string }) => i.imageId)[0]).toBe(imageId);
    expect(second.body.images).toHaveLength(2);

    const at = { 'Wait-For-Position': second.headers.get('event-position')! };
    const read = await app.request('GET', `/products/${productId}`, undefined, at);
    expect(read.body.images).toEqual(second.body.images);
    for (const [size, width] of [
      ['small', 320],
      ['large', 1280],
    ] as const) {
      const served = await fetch(`${app.url}/images/${imageId}/${size}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toMatch(/immutable/);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(await pictureOf(bytes)).toEqual({ format: 'webp', width, height: width * 1.5, exif: false });
      const again = await fetch(`${app.url}/images/${imageId}/${size}`, { headers: { 'if-none-match': served.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // Never scaled up: a small picture's large size is the picture.
    const smallPicture = second.body.images[1].imageId;
    expect(await pictureOf(Buffer.from(await (await fetch(`${app.url}/images/${smallPicture}/large`)).arrayBuffer()))).toMatchObject({
      width: 300,
    });

    const reordered = await app.write('PATCH', `/products/${productId}`, { images: [second.body.images[1], second.body.images[0]] });
    expect(reordered.body.images.map((i: { imageId: string }) => i.imageId)).toEqual([smallPicture, imageId]);
    const dropped = await app.write('PATCH', `/products/${productId}`, { images: [second.body.images[0]] });
    expect(dropped.body.images).toEqual([second.body.images[0]]);
  });

  it('refuses a bad upload by what it is, and writes nothing', async () => {
    const productId = await newProduct();
    const png = await picture(64, 64, 'png');
    const refusals: Array<[string, Uint8Array, string, number, RegExp]> = [
      ['not a picture', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', 415, /not a picture/],
      [
        'disguised as another kind',
        await picture(64, 64, 'jpeg'),
        'image/png',
        415,
        /is a JPEG picture, not PNG as its Content-Type \(image\/png\) says/,
      ],
      [
        'an SVG, which could carry a script',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
        'image/png',
        415,
        /is SVG: JPEG, PNG and WebP pictures are taken/,
      ],
      ['a kind not taken', png, 'image/gif', 415, /image\/jpeg, image\/png, image\/webp, not image\/gif/],
      ['too big', Buffer.alloc(MAX_PICTURE_BYTES + 1), 'image/png', 413, /larger than the limit/],
      ['empty', Buffer.alloc(0), 'image/png', 400, /is empty/],
      ['cut short', png.subarray(0, png.length - 40), 'image/png', 400, /damaged or cut short/],
    ];
    // A few hundred bytes of PNG that claim more pixels than are taken: refused before decoding.
    const side = Math.ceil(Math.sqrt(MAX_PICTURE_PIXELS)) + 1;
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(side, 16);
    bomb.writeUInt32BE(side, 20);
    refusals.push(['a bomb', bomb, 'image/png', 400, /pixels; at most/]);
    for (const [what, bytes, type, status, detail] of refusals) {
      const reply = await upload(productId, bytes, type);
      expect(reply.status, what).toBe(status);
      expect(reply.headers.get('content-type'), what).toContain('application/problem+json');
      expect(reply.body.detail, what).toMatch(detail);
    }
    const read = await app.request('GET', `/products/${productId}`);
    expect(read.body).toMatchObject({ images: [], version: 0 });
  });

  it(`refuses a picture past ${MAX_PRODUCT_IMAGES}, the same one twice, a picture the product lacks, and a stranger`, async () => {
    const productId = await newProduct();
    const uploads = [];
    for (let i = 0; i < MAX_PRODUCT_IMAGES; i++) uploads.push(await upload(productId, await picture(40 + i, 40, 'webp'), MEDIA_TYPE.webp));
    const last = uploads[uploads.length - 1]!;
    expect(last.body.images).toHaveLength(MAX_PRODUCT_IMAGES);
    const over = await upload(productId, await picture(99, 40, 'webp'), MEDIA_TYPE.webp);
    expect([over.status, over.body.errors?.[0]?.field]).toEqual([422, 'images']);
    const other = await newProduct();
    const once = await upload(other, await picture(40, 40, 'webp'), MEDIA_TYPE.webp);
    expect(once.status).toBe(201);
    const twice = await upload(other, await picture(40, 40, 'webp'), MEDIA_TYPE.webp);
    expect(twice.status).toBe(409);
    const foreign = await app.write('PATCH', `/products/${other}`, { images: [...once.body.images, last.body.images[3]] });
    expect([foreign.status, foreign.body.errors?.[0]?.field]).toEqual([422, 'images.1']);
    const stranger = await upload(other, await picture(41, 40, 'webp'), MEDIA_TYPE.webp, app.anonymous());
    expect(stranger.status).toBe(401);
    expect((await app.request('GET', `/images/${'0'.repeat(32)}/small`)).status).toBe(404);
    expect((await app.request('GET', `/images/${once.body.images[0].imageId}/huge`)).status).toBe(404);
  });
});
