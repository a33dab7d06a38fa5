/// <reference lib="dom" />
// What admins do: create, change and delete products, take the orders' steps that are the shop's
// (the life cycle says which), and list users. Prices are typed in the currency's own units
// (12.50) and sent in minor units (1250), as the API keeps them.
import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { Order, Product, User } from '@eventide/client/api-client.ts';
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import { ORDER_STEPS } from '@eventide/kernel/models/order/life-cycle.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api, asProblem } from '../api.ts';
import { LiveBadge, useLiveList } from '../live.tsx';
import { OrdersTable } from './orders.tsx';
import { Field, Loading, ProblemMessage, useSubmit } from '../parts.tsx';
import { fractionDigits, toMajorUnits } from '@eventide/kernel/money.ts';
import { isAdmin, useSession } from '../session.tsx';

const toMinor = (text: string, currency: string) => Math.round(Number(text.replace(',', '.')) * 10 ** fractionDigits(currency));
const toMajor = (amount: number, currency: string) => toMajorUnits(amount, currency).toFixed(fractionDigits(currency));

export function ProductForm(props: { product?: Product; version?: number; onSaved: (product: Product, version: number) => void }) {
  const [, navigate] = useLocation();
  const existing = props.product;
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [currency, setCurrency] = useState(existing?.price.currency ?? 'EUR');
  const [amount, setAmount] = useState(existing ? toMajor(existing.price.amount, existing.price.currency) : '');
  const [category, setCategory] = useState(existing?.category ?? '');
  const [taxRate, setTaxRate] = useState(existing?.taxRate == null ? '' : String(existing.taxRate));
  const saving = useSubmit(async () => {
    const body = {
      name,
      description,
      price: { amount: toMinor(amount, currency), currency },
      // Empty: the product does not state its rate.
      taxRate: taxRate.trim() === '' ? null : Number(taxRate.replace(',', '.')),
      category: category || null,
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
  const busy = saving.busy || removing.busy;
  const problem = removing.problem ?? saving.problem;

  return (
    <form onSubmit={saving.submit} aria-busy={busy} aria-labelledby="product-form-title">
      <h2 id="product-form-title">{existing ? 'Edit this product' : 'New product'}</h2>
      <Field label="Name" name="name" required value={name} onInput={setName} problem={problem} />
      <Field label="Description" name="description" value={description} onInput={setDescription} problem={problem} />
      <Field label="Price" name="price.amount" type="text" required value={amount} onInput={setAmount} problem={problem} />
      <Field
        label="Currency (ISO 4217, such as EUR)"
        name="price.currency"
        required
        value={currency}
        onInput={setCurrency}
        problem={problem}
      />
      <Field
        label="Tax rate included, in % (empty: not stated)"
        name="taxRate"
        type="text"
        value={taxRate}
        onInput={setTaxRate}
        problem={problem}
      />
      <Field label="Category" name="category" value={category} onInput={setCategory} problem={problem} />
      <ProblemMessage problem={problem} fields={['name', 'description', 'price.amount', 'price.currency', 'taxRate', 'category']} />
      {saving.done && !problem && (
        <p role="status" class="ok">
          Saved.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save changes' : 'Create product'}
        </button>
        {existing && (
          <button type="button" class="secondary" disabled={busy} onClick={(event) => void removing.submit(event)}>
            Delete product
          </button>
        )}
      </div>
    </form>
  );
}

/** The statuses in which an order waits for the shop: those a step only an admin takes leads from. */
const SHOPS_TURN: OrderStatus[] = ORDER_STEPS.filter((step) => !step.by.includes('customer')).flatMap((step) => [...step.from]);

/** Orders waiting for the shop's next step (a payment to record, a parcel to send, a delivery), oldest first. */
function OrdersToHandle() {
  const [orders, setOrders] = useState<Order[]>();
  const [problem, setProblem] = useState<ApiProblem>();
  const load = () =>
    void Promise.all(SHOPS_TURN.map((status) => api.orders.list({ status, limit: 20 }))).then(
      (pages) => setOrders(pages.flatMap((page) => page.items).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))),
      (error) => setProblem(asProblem(error)),
    );
  useEffect(load, []);
  useLiveList<Order>('orders', {
    reload: load,
    update: (next) => setOrders((shown) => shown && next(shown)),
    idOf: (o) => o.orderId,
    wanted: (o) => SHOPS_TURN.includes(o.status as OrderStatus),
  });
  return (
    <>
      <h2>Orders waiting for the shop</h2>
      <ProblemMessage problem={problem} />
      {!orders && !problem && <Loading>Loading orders…</Loading>}
      {orders?.length === 0 && <p>None: every order is with its customer, or done.</p>}
      {orders && orders.length > 0 && <OrdersTable orders={orders} />}
    </>
  );
}

export function AdminPage() {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const [users, setUsers] = useState<User[]>();
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [problem, setProblem] = useState<ApiProblem>();
  const load = () => {
    if (!isAdmin(session)) return;
    api.users.list({ page, limit: 20 }).then(
      (answer) => {
        setUsers(answer.items);
        setTotal(answer.total);
      },
      (error) => setProblem(asProblem(error)),
    );
  };
  useEffect(load, [session?.userId, page]);
  // A new user comes first on the first page; the others only change in place.
  const live = useLiveList<User>('users', {
    reload: load,
    update: (next) => setUsers((shown) => shown && next(shown)),
    idOf: (u) => u.userId,
    wanted: (u) => page === 1 || (users ?? []).some((s) => s.userId === u.userId),
  });
  if (session === undefined) return <Loading />;
  if (!isAdmin(session)) return <p>This page is for administrators.</p>;
  const pages = Math.max(1, Math.ceil(total / 20));
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">Administration</h1>
      <ProductForm onSaved={(product) => navigate(`/products/${product.productId}`)} />
      <OrdersToHandle />
      <h2>
        Users <LiveBadge state={live} />
      </h2>
      <ProblemMessage problem={problem} />
      {!users && !problem && <Loading>Loading users…</Loading>}
      {users && (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.userId}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td>{new Date(user.createdAt).toLocaleDateString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages of users" class="pager">
            <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
      <p>
        <Link href="/">Products</Link> can be edited and deleted from their own pages.
      </p>
    </section>
  );
}
