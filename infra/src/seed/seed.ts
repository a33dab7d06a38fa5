// Fills an event store with a shop's history through the write side's own code: each user is
// signed up by claiming the email and running CreateUser, each product by CreateProduct, each
// order priced from the catalogue and moved through its life cycle with ChangeOrder, all by
// `handle` (load the stream, decide, append with the expected revision), as the API does. Many
// commands run at once, so appends share commits as concurrent requests do.
import { newId } from '@eventide/shared/ids.ts';
import type { EventStore } from '@eventide/shared/event-store/port.ts';
import type { EventMetadata } from '@eventide/shared/events/catalogue.ts';
import type { Aggregate, Decided } from '@eventide/command-service/src/aggregate.ts';
import { handle, type CommandOptions } from '@eventide/command-service/src/handle.ts';
import { currentPrices, priceLines, requireCustomer } from '@eventide/command-service/src/order/pricing.ts';
import { orderAggregate, type OrderCommand } from '@eventide/command-service/src/order/decide.ts';
import { productAggregate } from '@eventide/command-service/src/product/decide.ts';
import { userAggregate } from '@eventide/command-service/src/user/decide.ts';
import { emailClaims } from '@eventide/command-service/src/user/email-claim.ts';
import type { ClaimNames } from '@eventide/command-service/src/claims.ts';
import { isRefusal } from '@eventide/shared/models/refusal.ts';
import type { Principal } from '@eventide/shared/models/principal.ts';
import type { OrderState } from '@eventide/shared/models/order/state.ts';
import { MIX, seedData } from './data.ts';

export interface SeedProgress {
  events: number;
  target: number;
  users: number;
  products: number;
  orders: number;
}

export interface SeedOptions {
  eventStore: EventStore;
  /** Names the email claims' streams: the key store that seals the event store's personal data. */
  claimNames: ClaimNames;
  /** About how many events to append (the last commands may go a few past it). */
  events: number;
  seed?: number;
  /** Commands in flight at once. */
  concurrency?: number;
  onProgress?(progress: SeedProgress): void;
}

/** The seed acts as the system: it takes every step of an order's life cycle, the admin's too. */
const SEED: Principal = { type: 'system', name: 'seed' };

/** The steps an order's status takes, and how often an order goes on to the next one. */
const LIFE: Array<{ status: 'placed' | 'paid' | 'shipped' | 'delivered'; share: number }> = [
  { status: 'placed', share: 0.85 },
  { status: 'paid', share: 0.8 },
  { status: 'shipped', share: 0.85 },
  { status: 'delivered', share: 0.9 },
];

export async function seed({
  eventStore,
  claimNames,
  events: target,
  seed: seedNumber = 1,
  concurrency = 64,
  onProgress,
}: SeedOptions): Promise<SeedProgress> {
  const data = seedData(seedNumber);
  const claims = emailClaims(eventStore, claimNames);
  const progress: SeedProgress = { events: 0, target, users: 0, products: 0, orders: 0 };
  const correlationId = `seed-${newId()}`;
  const options = (): CommandOptions => ({
    metadata: { correlationId, actor: { type: 'system', name: 'seed' } } satisfies Omit<EventMetadata, 'causationId'>,
  });
  /** Every command here appends one event when it changes anything. */
  const counted = async (write: Promise<{ changed: boolean }>) => {
    if ((await write).changed) progress.events++;
    onProgress?.(progress);
  };
  /** Runs a command; two workers that picked the same entity at once retry as a client would (409: read again). */
  async function run<State, Command, Event extends Decided>(
    aggregate: Aggregate<State, Command, Event>,
    id: string,
    command: Command | ((state: State) => Command),
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await counted(handle(eventStore, aggregate, id, command, options()));
      } catch (error) {
        if (!(isRefusal(error, 'conflict') && attempt < 5)) throw error;
      }
    }
  }

  const userIds: string[] = [];
  const productsByCurrency = new Map<string, string[]>();
  const allProducts: string[] = [];

  async function signUp(n: number) {
    const userId = newId();
    const profile = data.user(n);
    const commandId = newId();
    await claims.claim(profile.email, userId, commandId, { ...options().metadata, causationId: commandId });
    progress.events++;
    await run(userAggregate, userId, { type: 'CreateUser', userId, profile });
    userIds.push(userId);
    progress.users++;
  }

  async function addProduct() {
    const productId = newId();
    const details = data.product();
    await run(productAggregate, productId, { type: 'CreateProduct', productId, details });
    const sameCurrency = productsByCurrency.get(details.price.currency) ?? [];
    sameCurrency.push(productId);
    productsByCurrency.set(details.price.currency, sameCurrency);
    allProducts.push(productId);
    progress.products++;
  }

  const changeProduct = () => run(productAggregate, data.pick(allProducts), { type: 'ChangeProduct', changes: data.productChange() });

  /** An order as a customer makes it: created with lines, sometimes changed, then as far along its life as it gets. */
  async function order() {
    const orderId = newId();
    const userId = data.pick(userIds);
    const currency = data.pick([...productsByCurrency.keys()]);
    const body = data.order(userId, productsByCurrency.get(currency)!);
    await requireCustomer(eventStore, userId, SEED);
    const prices = await currentPrices(eventStore, body.lines);
    await run(
      orderAggregate,
      orderId,
      (state: OrderState): OrderCommand => ({
        type: 'CreateOrder',
        by: SEED,
        orderId,
        userId,
        lines: priceLines(body.lines, prices, state),
      }),
    );
    progress.orders++;
    if (data.random() < 0.3) {
      const more = body.lines.map((line) => ({ ...line, quantity: line.quantity + 1 }));
      await run(
        orderAggregate,
        orderId,
        (state: OrderState): OrderCommand => ({ type: 'ChangeOrder', by: SEED, changes: { lines: priceLines(more, prices, state) } }),
      );
    }
    for (const step of LIFE) {
      if (data.random() > step.share) {
        // Half of the orders that stop before shipping are cancelled; the rest stay where they are.
        if (step.status !== 'delivered' && data.random() < 0.5)
          await run(orderAggregate, orderId, { type: 'ChangeOrder', by: SEED, changes: { status: 'cancelled' } });
        return;
      }
      await run(orderAggregate, orderId, { type: 'ChangeOrder', by: SEED, changes: { status: step.status } });
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
  const ordersUntil = productsUntil + Math.ceil(target * MIX.orders);
  await phase(order, () => progress.events >= ordersUntil);
  // The rest of the products' share: price and description changes to products already listed.
  await phase(changeProduct, () => progress.events >= start + target);
  return progress;
}
