/// <reference lib="dom" />
// The app's one client of the API (same origin, the session cookie rides along), and what it
// shows for money and errors.
import { createApiClient } from '@eventide/client/api-client.ts';
import { ApiProblem } from '@eventide/client/problem.ts';
import { toMajorUnits } from '@eventide/kernel/money.ts';

// A page opened right after a write (a new product, a changed order) must show that write.
export const api = createApiClient({ baseUrl: '', readYourWrites: true });

/** Any failure as an ApiProblem: the server's, or a network failure in the same shape. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem({
    type: 'network',
    title: 'The service cannot be reached',
    status: 0,
    detail: 'Check the connection and try again.',
  });
}

export function formatMoney(money: { amount: number; currency: string } | null): string {
  if (!money) return '—';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(
    toMajorUnits(money.amount, money.currency),
  );
}
