// Looks up what an order refers to: its user must exist, and each line's product must exist
// and gives the line its price. A product already on the order keeps the price it was added
// at; a new one takes the catalogue's current price.
import type { Money } from '@eventide/kernel/entities/values.ts';
import type { OrderLine } from '@eventide/kernel/entities/order.ts';
import type { EventStore } from '@eventide/stores/event-store/port.ts';
import { refuse } from '@eventide/kernel/models/refusal.ts';
import { isUuid } from '@eventide/kernel/ids.ts';
import { load } from '../handle.ts';
import { isExisting, type OrderState } from '@eventide/kernel/models/order/state.ts';
import { requireMayOrderFor } from '@eventide/kernel/models/order/life-cycle.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import { productAggregate } from '../product/decide.ts';
import { userAggregate } from '../user/decide.ts';

export interface RequestedLine {
  productId: string;
  quantity: number;
}

/** The user an order is made for: one `who` may order for (the life cycle's rule, first, so that nothing is told of others), and one that exists. */
export async function requireCustomer(store: EventStore, userId: string, who: Principal): Promise<void> {
  requireMayOrderFor(userId, who);
  const { state } = isUuid(userId) ? await load(store, userAggregate, userId) : { state: { status: 'absent' } };
  if (state.status === 'absent') throw refuse.unprocessable('userId', 'no user has this id');
  if (state.status === 'deleted') throw refuse.unprocessable('userId', 'this user has been deleted');
}

/** Current catalogue prices of the requested products, refusing unknown or deleted ones. */
export async function currentPrices(store: EventStore, lines: RequestedLine[]): Promise<Map<string, Money>> {
  const prices = new Map<string, Money>();
  await Promise.all(
    lines.map(async (line, i) => {
      const field = `lines.${i}.productId`;
      if (!isUuid(line.productId)) throw refuse.unprocessable(field, 'no product has this id');
      const { state } = await load(store, productAggregate, line.productId);
      if (state.status === 'absent') throw refuse.unprocessable(field, 'no product has this id');
      if (state.status === 'deleted') throw refuse.unprocessable(field, 'this product has been deleted');
      prices.set(line.productId, state.price);
    }),
  );
  return prices;
}

export function priceLines(lines: RequestedLine[], prices: Map<string, Money>, order: OrderState): OrderLine[] {
  const kept = new Map((isExisting(order) ? order.lines : []).map((l) => [l.productId, l.unitPrice]));
  const priced = lines.map((line) => ({
    productId: line.productId,
    quantity: line.quantity,
    unitPrice: kept.get(line.productId) ?? prices.get(line.productId)!,
  }));
  // Prices recorded before the API bounded them could make a total that is no longer exact.
  const total = priced.reduce((sum, line) => sum + line.quantity * line.unitPrice.amount, 0);
  if (!Number.isSafeInteger(total)) throw refuse.unprocessable('lines', "the order's total would be too large to count exactly");
  return priced;
}
