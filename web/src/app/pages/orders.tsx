/// <reference lib="dom" />
// A signed-in user's orders, and the way a product goes onto one (addToDraft). One order's page is
// order-page.tsx.
import { Link } from 'wouter-preact';
import type { Order } from '@eventide/client/api-client.ts';
import { api, formatMoney } from '../api.ts';
import { LiveBadge, useLiveList } from '../live.tsx';
import { Shown, useLoad } from '../load.tsx';
import { Loading, SignInFirst } from '../parts.tsx';
import { useSession } from '../session.tsx';
import { type Column, Table } from '../table.tsx';

const ORDER_COLUMNS: Column<Order>[] = [
  { header: 'Order', cell: (order) => <Link href={`/orders/${order.orderId}`}>{new Date(order.createdAt).toLocaleString()}</Link> },
  { header: 'Status', cell: (order) => <span class={`status status-${order.status}`}>{order.status}</span> },
  { header: 'Lines', cell: (order) => order.lines.length },
  { header: 'Total', cell: (order) => formatMoney(order.total) },
];

/** Orders, each a link to its page, with its status, lines and total. */
export function OrdersTable({ orders }: { orders: Order[] }) {
  return <Table rows={orders} columns={ORDER_COLUMNS} rowKey={(order) => order.orderId} />;
}

export function OrdersPage() {
  const { session } = useSession();
  const orders = useLoad(
    () => (session ? api.orders.list({ userId: session.userId, limit: 100 }).then((page) => page.items) : undefined),
    [session?.userId],
  );
  const live = useLiveList<Order>('orders', {
    reload: orders.reload,
    update: (next) => orders.set((shown) => shown && next(shown)),
    idOf: (o) => o.orderId,
    wanted: (o) => o.userId === session?.userId,
  });
  if (session === undefined) return <Loading />;
  if (session === null) return <SignInFirst what="your orders" />;
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">
        Your orders <LiveBadge state={live} />
      </h1>
      <Shown loaded={orders} loading="Loading your orders…">
        {(shown) =>
          shown.length === 0 ? (
            <p>
              No orders yet. Open a <Link href="/">product</Link> and add it to an order.
            </p>
          ) : (
            <OrdersTable orders={shown} />
          )
        }
      </Shown>
    </section>
  );
}

/** Adds a product to the user's draft order, starting one if there is none. */
export async function addToDraft(userId: string, productId: string, quantity: number): Promise<Order> {
  const drafts = await api.orders.list({ userId, status: 'draft', limit: 1 });
  const draft = drafts.items[0];
  if (!draft) return (await api.orders.create({ userId, lines: [{ productId, quantity }] }, { idempotencyKey: crypto.randomUUID() })).data;
  const lines = draft.lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  const existing = lines.find((l) => l.productId === productId);
  if (existing) existing.quantity += quantity;
  else lines.push({ productId, quantity });
  return (await api.orders.change(draft.orderId, { lines }, { ifMatch: draft.version })).data;
}
