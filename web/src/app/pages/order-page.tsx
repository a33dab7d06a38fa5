/// <reference lib="dom" />
// One order: its lines (changeable while a draft) and the steps its status may take next. Every
// write sends the version it was shown (If-Match), and the answer replaces what is shown, so a
// stale page says so instead of overwriting.
import { useEffect, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { History } from '../history.tsx';
import type { Order, Session } from '@eventide/client/api-client.ts';
import {
  LINES_CHANGE_IN,
  ORDER_PATH,
  ORDER_STEPS,
  mayDelete,
  stepsFor,
  type OrderStep,
  type OrderStepName,
} from '@eventide/kernel/models/order/life-cycle.ts';
import type { Principal } from '@eventide/kernel/models/principal.ts';
import type { OrderStatus } from '@eventide/kernel/entities/order.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api, asProblem, formatMoney } from '../api.ts';
import { Loading, ProblemMessage, SignInFirst, useSubmit } from '../parts.tsx';
import { Table } from '../table.tsx';
import { isAdmin, useSession } from '../session.tsx';
import { LiveBadge, useLive } from '../live.tsx';
import { PaymentForm, PaymentShown } from './order-payment.tsx';

/** What each step of the life cycle is called on a button; which steps a person may take is the model's. */
const STEP_LABELS: Record<OrderStepName, string> = {
  place: 'Place order',
  pay: 'Record payment',
  ship: 'Mark shipped',
  deliver: 'Mark delivered',
  cancel: 'Cancel order',
};

/** What the order waits for when its next step on the way to delivered is someone else's to take. */
const WAITING_FOR: Record<OrderStepName, string> = {
  place: 'a product on it, to place it',
  pay: 'the shop to record your payment',
  ship: 'the shop to ship it',
  deliver: 'the shop to record its delivery',
  cancel: 'a cancellation',
};

/** The life cycle's steps this person may take on the order now: exactly those the server accepts from them. */
function offeredSteps(order: Order, session: Session): OrderStep[] {
  if (order.status === 'deleted') return [];
  const who: Principal = { type: 'user', userId: session.userId, admin: isAdmin(session) };
  return stepsFor({ userId: order.userId, status: order.status, lineCount: order.lines.length }, who);
}

/** The order's next step on its way to delivered, when it is not among those offered: what it waits for. */
function awaitedStep(order: Order, offered: OrderStep[]): OrderStep | undefined {
  const at = ORDER_PATH.indexOf(order.status as OrderStatus);
  if (at < 0) return undefined;
  const next = ORDER_STEPS.find((step) => step.from.includes(order.status as OrderStatus) && step.to === ORDER_PATH[at + 1]);
  return next && !offered.includes(next) ? next : undefined;
}

/**
 * A line's quantity as the person types it, sent when they leave the field. It keeps its own
 * text: bound to the order's figure alone, any re-render while typing (a product's name
 * arriving, say) would put the old figure back and lose what was typed.
 */
function QuantityInput({ label, quantity, onCommit }: { label: string; quantity: number; onCommit: (quantity: number) => void }) {
  const [typed, setTyped] = useState(String(quantity));
  useEffect(() => setTyped(String(quantity)), [quantity]);
  return (
    <input
      type="number"
      min={1}
      max={10000}
      class="quantity"
      aria-label={label}
      value={typed}
      onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
      onChange={(e) => onCommit(Number((e.target as HTMLInputElement).value))}
    />
  );
}

/** The names of the products on an order (an order line holds the product's id and price only). */
function useProductNames(ids: string[]): Record<string, string> {
  const [names, setNames] = useState<Record<string, string>>({});
  const key = ids.join(',');
  useEffect(() => {
    const missing = ids.filter((productId) => !(productId in names));
    for (const productId of missing)
      api.products.get(productId).then(
        (answer) => setNames((before) => ({ ...before, [productId]: answer.data.name })),
        () => setNames((before) => ({ ...before, [productId]: 'a product no longer sold' })),
      );
  }, [key]);
  return names;
}

/** Where the order is on its way: the steps to delivered, this one marked; or cancelled. */
function OrderSteps({ status }: { status: Order['status'] }) {
  return (
    <ol class="steps" aria-label="Status">
      {status === 'cancelled' ? (
        <li aria-current="step" class="current">
          cancelled
        </li>
      ) : (
        ORDER_PATH.map((step) => (
          <li
            key={step}
            class={step === status ? 'current' : ORDER_PATH.indexOf(step) < ORDER_PATH.indexOf(status as OrderStatus) ? 'past' : ''}
            aria-current={step === status ? 'step' : undefined}
          >
            {step}
          </li>
        ))
      )}
    </ol>
  );
}

type Lines = Array<{ productId: string; quantity: number }>;

/** An order's lines; while it is a draft (`onChange` given), each quantity changeable and each line removable. */
function OrderLines(props: {
  lines: Order['lines'];
  names: Record<string, string>;
  busy: boolean;
  onChange: ((lines: Lines, done: string) => void) | undefined;
}) {
  const { names, busy, onChange } = props;
  const lines = props.lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  const draft = onChange !== undefined;
  const changeLines = (next: Lines, done: string) => onChange?.(next, done);
  return (
    <Table
      label="Lines"
      rows={props.lines}
      rowKey={(line) => line.productId}
      columns={[
        { header: 'Product', cell: (line) => <Link href={`/products/${line.productId}`}>{names[line.productId] ?? 'Loading…'}</Link> },
        {
          header: 'Quantity',
          cell: (line, i) =>
            draft ? (
              <QuantityInput
                label={`Quantity of line ${i + 1}`}
                quantity={line.quantity}
                onCommit={(quantity) =>
                  void changeLines(
                    lines.map((l, j) => (j === i ? { ...l, quantity } : l)),
                    'Quantity changed.',
                  )
                }
              />
            ) : (
              line.quantity
            ),
        },
        { header: 'Unit price', cell: (line) => formatMoney(line.unitPrice) },
        { header: 'Line total', cell: (line) => formatMoney(line.lineTotal) },
        draft && {
          header: 'Remove',
          cell: (_, i) => (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() =>
                void changeLines(
                  lines.filter((_, j) => j !== i),
                  'Line removed.',
                )
              }
            >
              Remove
            </button>
          ),
        },
      ]}
    />
  );
}

export function OrderPage({ id }: { id: string }) {
  const { session } = useSession();
  const [, navigate] = useLocation();
  const [order, setOrder] = useState<Order>();
  const [problem, setProblem] = useState<ApiProblem>();
  const [notice, setNotice] = useState<string>();
  const names = useProductNames(order?.lines.map((l) => l.productId) ?? []);

  // What is shown is never taken back to an older version: a change that came live while a load
  // was on its way is newer than that load's answer.
  const show = (next: Order) =>
    setOrder((shown) => (shown && shown.orderId === next.orderId && shown.version > next.version ? shown : next));
  const load = () =>
    api.orders.get(id).then(
      (answer) => show(answer.data),
      (error) => setProblem(asProblem(error)),
    );
  useEffect(() => void load(), [id]);
  const live = useLive(['orders'], {
    reload: () => void load(),
    change: (change) => {
      if (change.resource !== 'orders' || change.id !== id) return;
      if (change.type === 'changed') show(change.body);
      else void load();
    },
  });

  const writing = useSubmit(async (action: (order: Order) => Promise<Order | undefined>, done: string) => {
    if (!order) return;
    setNotice(undefined);
    const changed = await action(order);
    if (changed) show(changed);
    setNotice(done);
  });
  const write = (action: (order: Order) => Promise<Order | undefined>, done: string) => writing.submit(undefined, action, done);
  const busy = writing.busy;
  const changeLines = (lines: Lines, done: string) =>
    write(async (o) => (await api.orders.change(o.orderId, { lines }, { ifMatch: o.version })).data, done);
  const take = (step: OrderStep) =>
    write(
      async (o) => (await api.orders.change(o.orderId, { status: step.to }, { ifMatch: o.version })).data,
      `${STEP_LABELS[step.name]}: done.`,
    );

  if (session === null) return <SignInFirst what="this order" />;
  if (!order || !session) return problem ? <ProblemMessage problem={problem} /> : <Loading>Loading the order…</Loading>;
  const draft = order.status !== 'deleted' && LINES_CHANGE_IN.includes(order.status);
  const offered = offeredSteps(order, session);
  const awaited = awaitedStep(order, offered);
  return (
    <article aria-labelledby="order-title" aria-busy={busy}>
      <p>
        <Link href="/orders">← Your orders</Link>
      </p>
      <h1 id="order-title">
        Order of {new Date(order.createdAt).toLocaleDateString()} <LiveBadge state={live} />
      </h1>
      <OrderSteps status={order.status} />
      <OrderLines lines={order.lines} names={names} busy={busy} onChange={draft ? changeLines : undefined} />
      <p class="total">Total: {formatMoney(order.total)}</p>
      {order.payment && <PaymentShown payment={order.payment} />}
      <ProblemMessage problem={writing.problem ?? problem} fields={[]} />
      {notice && !writing.problem && (
        <p role="status" class="ok">
          {notice}
        </p>
      )}
      {awaited && <p class="waiting">Next: waiting for {WAITING_FOR[awaited.name]}.</p>}
      {offered.some((step) => step.name === 'pay') && (
        <PaymentForm
          order={order}
          onPaid={(paid) => {
            show(paid);
            setNotice(`${STEP_LABELS.pay}: done.`);
          }}
        />
      )}
      <div class="actions">
        {offered
          .filter((step) => step.name !== 'pay')
          .map((step) => (
            <button
              key={step.name}
              type="button"
              class={step.name === 'cancel' ? 'secondary' : ''}
              disabled={busy}
              onClick={() => void take(step)}
            >
              {STEP_LABELS[step.name]}
            </button>
          ))}
        {order.status !== 'deleted' && mayDelete({ status: order.status }) && (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() =>
              void write(async (o) => {
                await api.orders.delete(o.orderId, { ifMatch: o.version });
                navigate('/orders');
                return undefined;
              }, 'Order deleted.')
            }
          >
            Delete order
          </button>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={() => void load()}>
          Reload
        </button>
      </div>
      <History
        at={`${order.orderId}@${order.version}`}
        me={session.userId}
        names={names}
        load={(cursor) => api.orders.history(order.orderId, cursor ? { cursor } : {})}
      />
    </article>
  );
}
