// Fills an event store with a shop's history through the write side's own use cases (the command
// service's public entry, write-side.ts): each user signed up as the API signs them up, each
// product created, each order priced from the catalogue and moved along its life cycle, by the
// functions the HTTP handlers call. Many commands run at once, so appends share commits as
// concurrent requests do.
import type { WriteResult, WriteSide } from '@eventide/command-service/src/write-side.ts';
import type { EventMetadata } from '@eventide/kernel/events/catalogue.ts';
import { newId } from '@eventide/kernel/ids.ts';
import { ORDER_PATH } from '@eventide/kernel/models/order/life-cycle.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import type { ExistingOrder } from '@eventide/kernel/models/order/state.ts';
import { isRefusal } from '@eventide/kernel/models/refusal.ts';
import sharp from 'sharp';
import { makePicture } from '@eventide/command-service/src/product/pictures.ts';
import type { ImageStore } from '@eventide/stores/image-store/port.ts';
import { MIX, seedData } from './data.ts';

export interface SeedProgress {
  events: number;
  target: number;
  users: number;
  products: number;
  orders: number;
}

export interface SeedOptions {
  /** The command service's use cases, on the event store to fill. */
  writes: WriteSide;
  /** About how many events to append (the last commands may go a few past it). */
  events: number;
  seed?: number;
  /** Commands in flight at once. */
  concurrency?: number;
  /** Where the newest products' pictures are kept, and how many products get one (the first page or two of the shop). */
  pictures?: { store: ImageStore; count: number };
  onProgress?(progress: SeedProgress): void;
}

/** The seed acts as the system: it takes every step of an order's life cycle, the admin's too. */
const SEED: Principal = { type: 'system', name: 'seed' };

/** How often an order that reached a status goes on to the next one on its way (ORDER_PATH). */
const GOES_ON: Partial<Record<(typeof ORDER_PATH)[number], number>> = { draft: 0.85, placed: 0.8, paid: 0.85, shipped: 0.9 };

export async function seed({
  writes,
  events: target,
  seed: seedNumber = 1,
  concurrency = 64,
  pictures,
  onProgress,
}: SeedOptions): Promise<SeedProgress> {
  const data = seedData(seedNumber);
  const progress: SeedProgress = { events: 0, target, users: 0, products: 0, orders: 0 };
  const correlationId = `seed-${newId()}`;
  const caller = { key: 'system:seed', ip: '127.0.0.1', metadata: { correlationId, actor: { type: 'system', name: 'seed' } } } as const;
  const options = () => ({
    metadata: { correlationId, actor: { type: 'system', name: 'seed' } } satisfies Omit<EventMetadata, 'causationId'>,
  });
  /** Runs a write; two workers that picked the same entity at once retry as a client would (409: read again). */
  async function run<T extends WriteResult<unknown> | { result: WriteResult<unknown> }>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const written = await write();
        // Every write here appends one event when it changes anything.
        if (('result' in written ? written.result : (written as WriteResult<unknown>)).changed) progress.events++;
        onProgress?.(progress);
        return written;
      } catch (error) {
        if (!(isRefusal(error, 'conflict') && attempt < 5)) throw error;
      }
    }
  }

  const userIds: string[] = [];
  const productsByCurrency = new Map<string, string[]>();
  const allProducts: string[] = [];

  async function signUp(n: number) {
    // Without a password the address is claimed in the same commit as the user: two events.
    const { result } = await run(() =>
      writes.identity.signUp({ profile: data.user(n), password: undefined, by: SEED, caller, options: options() }),
    );
    progress.events++;
    userIds.push((result.state as { userId: string }).userId);
    progress.users++;
  }

  async function addProduct() {
    const details = data.product();
    const { id } = await run(() => writes.products.create(details, options()));
    const sameCurrency = productsByCurrency.get(details.price.currency) ?? [];
    sameCurrency.push(id);
    productsByCurrency.set(details.price.currency, sameCurrency);
    allProducts.push(id);
    progress.products++;
  }

  /** A picture for one of the newest products, made and kept as an upload's is (command-service's pictures.ts). */
  async function addPicture(n: number) {
    const productId = allProducts[allProducts.length - 1 - n]!;
    const png = await sharp(Buffer.from(data.pictureSvg())).png().toBuffer();
    const picture = await makePicture(png, 'image/png');
    await pictures!.store.put(picture.image.imageId, picture.renditions);
    await run(() => writes.products.addImage(productId, picture.image, options()));
  }

  async function changeProduct() {
    await run(() => writes.products.change(data.pick(allProducts), data.productChange(), options()));
  }

  /** An order as a customer makes it: created with lines, sometimes changed, then as far along its life as it gets. */
  async function order() {
    const userId = data.pick(userIds);
    const currency = data.pick([...productsByCurrency.keys()]);
    const body = data.order(userId, productsByCurrency.get(currency)!);
    const { id, result } = await run(() => writes.orders.create({ by: SEED, userId, lines: body.lines }, options()));
    progress.orders++;
    let order = result.state as ExistingOrder;
    if (data.random() < 0.3) {
      const more = body.lines.map((line) => ({ ...line, quantity: line.quantity + 1 }));
      order = (await run(() => writes.orders.change(id, { by: SEED, lines: more }, options()))).state as ExistingOrder;
    }
    for (const [from, to] of ORDER_PATH.slice(0, -1).map((status, i) => [status, ORDER_PATH[i + 1]!] as const)) {
      if (data.random() > (GOES_ON[from] ?? 0)) {
        // Half of the orders that stop before shipping are cancelled; the rest stay where they are.
        if (to !== 'delivered' && data.random() < 0.5)
          await run(() => writes.orders.change(id, { by: SEED, status: 'cancelled' }, options()));
        return;
      }
      // A payment is recorded with its step: the total, paid as shops are paid.
      const payment = to === 'paid' ? data.payment(order.lines) : undefined;
      await run(() => writes.orders.change(id, { by: SEED, status: to, payment }, options()));
    }
  }

  /** Runs `task` from `concurrency` workers until `done` says the phase has written enough. */
  async function phase(task: (n: number) => Promise<void>, done: () => boolean) {
    let n = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (!done()) await task(n++);
      }),
    );
  }

  const start = progress.events;
  const share = (kind: keyof typeof MIX) => start + Math.ceil(target * MIX[kind]);
  // Users and products first: orders need both.
  const usersUntil = share('users');
  await phase(signUp, () => progress.events >= usersUntil && userIds.length > 0);
  const productsUntil = usersUntil + Math.ceil(target * MIX.products * 0.95);
  await phase(addProduct, () => progress.events >= productsUntil);
  // One picture at a time, as the service makes them (a few more waiting would be refused as busy).
  if (pictures) for (let n = 0; n < Math.min(pictures.count, allProducts.length); n++) await addPicture(n);
  const ordersUntil = productsUntil + Math.ceil(target * MIX.orders);
  await phase(order, () => progress.events >= ordersUntil);
  // The rest of the products' share: price and description changes to products already listed.
  await phase(changeProduct, () => progress.events >= start + target);
  return progress;
}
