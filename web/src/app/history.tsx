/// <reference lib="dom" />
// An entity's history as a page shows it: each change, newest first, with when, who and what it
// set, and older changes a page at a time (GET …/history, docs/api.md#history).
import { useEffect, useState } from 'preact/hooks';
import type { HistoryEntry, HistoryPage } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { asProblem } from './api.ts';
import { ProblemMessage } from './parts.tsx';

/** A value as a person reads it: money as money, nothing as a dash. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === '') return '(empty)';
  if (typeof value === 'object' && value !== null && 'amount' in value && 'currency' in value) {
    const { amount, currency } = value as { amount: number; currency: string };
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount / 10 ** digits);
  }
  if (Array.isArray(value)) return `${value.length} line${value.length === 1 ? '' : 's'}`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function who(actor: HistoryEntry['actor'], me: string | undefined): string {
  switch (actor.type) {
    case 'anonymous':
      return 'someone not signed in';
    case 'system':
      return `the system (${actor.name})`;
    case 'user':
      if (actor.erased) return 'a person since erased';
      return actor.userId === me ? 'you' : `user ${actor.userId.slice(0, 8)}`;
  }
}

/** `at` names what the history is of and its version: a change of it loads the newest page again. */
export function History({ load, me, at }: { load: (cursor?: string) => Promise<HistoryPage>; me: string | undefined; at: string }) {
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
            {entry.changes.length > 0 && (
              <ul>
                {entry.changes.map((change) => (
                  <li key={change.field}>
                    {change.field}: {shown(change.before)} → {shown(change.after)}
                  </li>
                ))}
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
