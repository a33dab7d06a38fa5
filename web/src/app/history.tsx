/// <reference lib="dom" />
// An entity's history as a page shows it: each change, newest first, with when, who and what it
// set, and older changes a page at a time (GET …/history, docs/api.md#history).
import { useEffect, useState } from 'preact/hooks';
import type { HistoryEntry, HistoryPage } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { asProblem } from './api.ts';
import { ProblemMessage } from './parts.tsx';

/** Money as a person reads it, in its currency's minor units. */
function money({ amount, currency }: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** A value as a person reads it: money as money, nothing as a dash. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === '') return '(empty)';
  if (typeof value === 'object' && 'amount' in value && 'currency' in value) return money(value as { amount: number; currency: string });
  if (typeof value === 'object' && 'amount' in value && 'method' in value) {
    // An order's payment: what, how, and its reference.
    const { amount, method, reference } = value as {
      amount: { amount: number; currency: string };
      method: string;
      reference: string | null;
    };
    return `${money(amount)} by ${method.replace('-', ' ')}${reference ? `, reference ${reference}` : ''}`;
  }
  if (Array.isArray(value)) {
    // A product's pictures ({imageId, …}), or an order's lines.
    const noun = value.some((item) => typeof item === 'object' && item !== null && 'imageId' in item) ? 'picture' : 'line';
    return value.length === 0 ? 'none' : `${value.length} ${noun}${value.length === 1 ? '' : 's'}`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface Line {
  productId: string;
  quantity: number;
  unitPrice: { amount: number; currency: string };
}

/** An order's lines before and after a change, in words: each product added, taken off, or changed in quantity or price. */
function lineChanges(before: Line[], after: Line[], names: Record<string, string>): string[] {
  const name = (productId: string) => names[productId] ?? 'a product';
  const was = new Map(before.map((line) => [line.productId, line]));
  const is = new Map(after.map((line) => [line.productId, line]));
  const said: string[] = [];
  for (const line of after) {
    const old = was.get(line.productId);
    if (!old) said.push(`${name(line.productId)} added, quantity ${line.quantity}`);
    else {
      if (old.quantity !== line.quantity) said.push(`${name(line.productId)}: quantity ${old.quantity} → ${line.quantity}`);
      if (old.unitPrice.amount !== line.unitPrice.amount)
        said.push(`${name(line.productId)}: price ${money(old.unitPrice)} → ${money(line.unitPrice)}`);
    }
  }
  for (const line of before) if (!is.has(line.productId)) said.push(`${name(line.productId)} taken off`);
  return said;
}

/** What a change set, a line per thing a person would name. */
function changeLines(change: HistoryEntry['changes'][number], names: Record<string, string>): string[] {
  if (change.field === 'lines' && (Array.isArray(change.before) || Array.isArray(change.after))) {
    return lineChanges((change.before ?? []) as Line[], (change.after ?? []) as Line[], names);
  }
  return [`${change.field}: ${shown(change.before)} → ${shown(change.after)}`];
}

/**
 * Who made a change, as a person says it. A person the reader may not know by name (the API names
 * them only to admins, and to themself) acted for the shop: on one's own order or account, no one else can.
 */
function who(actor: HistoryEntry['actor'], me: string | undefined): string {
  switch (actor.type) {
    case 'anonymous':
      return 'someone not signed in';
    case 'system':
      return 'the shop';
    case 'user':
      if (actor.erased) return 'a person since erased';
      if (actor.userId === me) return 'you';
      return actor.name ?? 'the shop';
  }
}

/** `at` names what the history is of and its version: a change of it loads the newest page again. */
export function History({
  load,
  me,
  at,
  names = {},
}: {
  load: (cursor?: string) => Promise<HistoryPage>;
  me: string | undefined;
  at: string;
  /** Products' names by id, for an order's lines. */
  names?: Record<string, string>;
}) {
  const [items, setItems] = useState<HistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>();
  const [problem, setProblem] = useState<ApiProblem>();
  const more = (after?: string) =>
    load(after).then(
      (page) => {
        setItems((before) => (after ? [...before, ...page.items] : page.items));
        setCursor(page.nextCursor);
      },
      (error) => setProblem(asProblem(error)),
    );
  useEffect(() => void more(), [at]);
  return (
    <section aria-labelledby="history-title" class="history">
      <h2 id="history-title">History</h2>
      <ProblemMessage problem={problem} />
      <ol>
        {items.map((entry) => (
          <li key={entry.revision}>
            <time dateTime={entry.time}>{new Date(entry.time).toLocaleString('en')}</time>, {who(entry.actor, me)}:{' '}
            {entry.event.split(':')[1]}
            {entry.reason && <span class="reason"> ({entry.reason})</span>}
            {entry.changes.length > 0 && (
              <ul>
                {entry.changes.flatMap((change) =>
                  changeLines(change, names).map((line) => <li key={`${change.field}:${line}`}>{line}</li>),
                )}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {cursor && (
        <button type="button" class="secondary" onClick={() => void more(cursor)}>
          Show older changes
        </button>
      )}
    </section>
  );
}
