/// <reference lib="dom" />
// The payment behind an order's step to paid: an admin records what was paid (the order's total),
// how, and the payment's reference, and the order shows it from then on.
import type { Order } from '@eventide/client/api-client.ts';
import type { OrderPayment } from '@eventide/kernel/entities/order.ts';
import { api, formatMoney } from '../api.ts';
import { Choice, Field, Form, useForm } from '../form.tsx';

/** How each way of paying is said (entities/order.ts lists them). */
const METHOD_LABELS: Record<OrderPayment['method'], string> = {
  card: 'Card',
  'bank-transfer': 'Bank transfer',
  cash: 'Cash',
  other: 'Other',
};

/** The payment recorded, in a line: what, how, and its reference. */
export function PaymentShown({ payment }: { payment: OrderPayment }) {
  return (
    <p class="payment">
      Paid {formatMoney(payment.amount)} by {METHOD_LABELS[payment.method].toLowerCase()}
      {payment.reference && <>, reference {payment.reference}</>}.
    </p>
  );
}

/** The step to paid with its payment: the total, a way of paying, a reference; the server checks them. */
export function PaymentForm({ order, onPaid }: { order: Order; onPaid: (order: Order) => void }) {
  const form = useForm({ 'payment.method': 'card', 'payment.reference': '' }, async (values) => {
    if (!order.total) return;
    const payment = {
      amount: order.total,
      method: values['payment.method'] as OrderPayment['method'],
      reference: values['payment.reference'].trim() || null,
    };
    onPaid((await api.orders.change(order.orderId, { status: 'paid', payment }, { ifMatch: order.version })).data);
  });
  return (
    <Form form={form} submit="Record payment" sending="Recording…" label="Record the payment" class="payment-form">
      <p>
        Amount: <strong>{formatMoney(order.total)}</strong>, the order's total.
      </p>
      <Choice label="Paid by" options={METHOD_LABELS} {...form.field('payment.method')} />
      <Field label="Reference (the bank's or the terminal's; never a card number)" {...form.field('payment.reference')} />
    </Form>
  );
}
