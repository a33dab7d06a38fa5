/// <reference lib="dom" />
// What admins do: create, change and delete products, take the orders' steps that are the shop's
// (the life cycle says which), and list users. Prices are typed in the currency's own units
// (12.50) and sent in minor units (1250), as the API keeps them.
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { Order, Product, User } from '@eventide/client/api-client.ts';
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import { ORDER_STEPS } from '@eventide/kernel/models/order/life-cycle.ts';
import { api } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { Shown, useLoad } from '../load.tsx';
import { type Column, Pager, Table } from '../table.tsx';
import { LiveBadge, useLiveList } from '../live.tsx';
import { OrdersTable } from './orders.tsx';
import { Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { fractionDigits, toMajorUnits } from '@eventide/kernel/money.ts';
import { isAdmin, useSession } from '../session.tsx';

const toMinor = (text: string, currency: string) => Math.round(Number(text.replace(',', '.')) * 10 ** fractionDigits(currency));
const toMajor = (amount: number, currency: string) => toMajorUnits(amount, currency).toFixed(fractionDigits(currency));

export function ProductForm(props: { product?: Product; version?: number; onSaved: (product: Product, version: number) => void }) {
  const [, navigate] = useLocation();
  const existing = props.product;
  // Named as the API names them, so that a refusal's errors are shown at their fields.
  const initial = {
    name: existing?.name ?? '',
    description: existing?.description ?? '',
    'price.amount': existing ? toMajor(existing.price.amount, existing.price.currency) : '',
    'price.currency': existing?.price.currency ?? 'EUR',
    // Empty: the product does not state its rate.
    taxRate: existing?.taxRate == null ? '' : String(existing.taxRate),
    category: existing?.category ?? '',
    // Empty: no stock-keeping unit.
    sku: existing?.sku ?? '',
  };
  const saving = useForm(initial, async (values) => {
    const currency = values['price.currency'];
    const body = {
      name: values.name,
      description: values.description,
      price: { amount: toMinor(values['price.amount'], currency), currency },
      taxRate: values.taxRate.trim() === '' ? null : Number(values.taxRate.replace(',', '.')),
      category: values.category || null,
      sku: values.sku.trim() || null,
    };
    const answer = existing
      ? await api.products.change(existing.productId, body, { ifMatch: props.version })
      : await api.products.create(body, { idempotencyKey: crypto.randomUUID() });
    props.onSaved(answer.data, answer.version ?? 0);
  });
  const removing = useSubmit(async () => {
    if (!existing) return;
    await api.products.delete(existing.productId, { ifMatch: props.version });
    navigate('/');
  });
  return (
    <Form
      form={{ ...saving, busy: saving.busy || removing.busy }}
      labelledBy="product-form-title"
      submit={existing ? 'Save changes' : 'Create product'}
      sent="Saved."
      actions={
        existing && (
          <button type="button" class="secondary" disabled={saving.busy || removing.busy} onClick={(event) => void removing.submit(event)}>
            Delete product
          </button>
        )
      }
    >
      <h2 id="product-form-title">{existing ? 'Edit this product' : 'New product'}</h2>
      <Field label="Name" required {...saving.field('name')} />
      <Field label="Description" {...saving.field('description')} />
      <Field label="Price" required {...saving.field('price.amount')} />
      <Field label="Currency (ISO 4217, such as EUR)" required {...saving.field('price.currency')} />
      <Field label="Tax rate included, in % (empty: not stated)" {...saving.field('taxRate')} />
      <Field label="Category" {...saving.field('category')} />
      <Field label="SKU (the shop's own code for it; empty: none)" {...saving.field('sku')} />
      <ProblemMessage problem={removing.problem} />
    </Form>
  );
}

/** The statuses in which an order waits for the shop: those a step only an admin takes leads from. */
const SHOPS_TURN: OrderStatus[] = ORDER_STEPS.filter((step) => !step.by.includes('customer')).flatMap((step) => [...step.from]);

/** Orders waiting for the shop's next step (a payment to record, a parcel to send, a delivery), oldest first. */
function OrdersToHandle() {
  const orders = useLoad(
    () =>
      Promise.all(SHOPS_TURN.map((status) => api.orders.list({ status, limit: 20 }))).then((pages) =>
        pages.flatMap((page) => page.items).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)),
      ),
    [],
  );
  useLiveList<Order>('orders', {
    reload: orders.reload,
    update: (next) => orders.set((shown) => shown && next(shown)),
    idOf: (o) => o.orderId,
    wanted: (o) => SHOPS_TURN.includes(o.status as OrderStatus),
  });
  return (
    <>
      <h2>Orders waiting for the shop</h2>
      <Shown loaded={orders} loading="Loading orders…">
        {(shown) => (shown.length === 0 ? <p>None: every order is with its customer, or done.</p> : <OrdersTable orders={shown} />)}
      </Shown>
    </>
  );
}

const USERS_A_PAGE = 20;

const USER_COLUMNS: Column<User>[] = [
  { header: 'Name', cell: (user) => user.name },
  { header: 'Email', cell: (user) => user.email },
  { header: 'Since', cell: (user) => new Date(user.createdAt).toLocaleDateString() },
];

export function AdminPage() {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const [page, setPage] = useState(1);
  const users = useLoad(() => (isAdmin(session) ? api.users.list({ page, limit: USERS_A_PAGE }) : undefined), [session?.userId, page]);
  // A new user comes first on the first page; the others only change in place.
  const live = useLiveList<User>('users', {
    reload: users.reload,
    update: (next) => users.set((shown) => shown && { ...shown, items: next(shown.items) }),
    idOf: (u) => u.userId,
    wanted: (u) => page === 1 || (users.value?.items ?? []).some((s) => s.userId === u.userId),
  });
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">Administration</h1>
      <ProductForm onSaved={(product) => navigate(`/products/${product.productId}`)} />
      <OrdersToHandle />
      <h2>
        Users <LiveBadge state={live} />
      </h2>
      <Shown loaded={users} loading="Loading users…">
        {(shown) => (
          <>
            <Table rows={shown.items} columns={USER_COLUMNS} rowKey={(user) => user.userId} />
            <Pager page={page} pages={Math.max(1, Math.ceil(shown.total / USERS_A_PAGE))} label="Pages of users" onPage={setPage} />
          </>
        )}
      </Shown>
      <p>
        <Link href="/">Products</Link> can be edited and deleted from their own pages.
      </p>
    </section>
  );
}
