// Search as a person types, by the spec's client rules (§8): ask 300 ms after the last keystroke,
// only for a query longer than 2 characters; a query already in flight is not sent again (its
// answer serves); a request superseded by a newer query is aborted, and a late answer to an old
// query never replaces a newer one. A 429 is shown, and nothing is sent until its Retry-After
// has passed (then the latest query goes, once). The page only renders `state`.
import { SEARCH_MIN } from '@eventide/kernel/search/limits.ts';
import { characters } from '@eventide/kernel/characters.ts';
import { ApiProblem } from './problem.ts';

export const SEARCH_WAIT_MS = 300;
/** The spec's "longer than 2": counted in characters (code points), after trimming, as the server counts. */
export const SEARCH_MIN_CHARACTERS = SEARCH_MIN;
/** Used when a 429 carries no Retry-After. */
const DEFAULT_BACKOFF_MS = 1000;

export type SearchState<Result> =
  /** Nothing to show: the query is too short (or empty). */
  | { status: 'idle'; query: string }
  /** Typing: the wait after the last keystroke runs; the previous results stay until replaced. */
  | { status: 'waiting'; query: string; results?: Result; resultsFor?: string }
  | { status: 'loading'; query: string; results?: Result; resultsFor?: string }
  | { status: 'done'; query: string; results: Result; resultsFor: string }
  /** The server refused or failed; `problem.status` 429 means limited until `retryAt`. */
  | { status: 'error'; query: string; problem: ApiProblem; retryAt?: number };

export interface SearchAsYouTypeOptions<Result> {
  search(query: string, signal: AbortSignal): Promise<Result>;
  onChange(state: SearchState<Result>): void;
  waitMs?: number;
  minCharacters?: number;
}

export interface SearchAsYouType {
  /** The text box changed. */
  input(text: string): void;
  /** Stops timers and aborts what is in flight; nothing is reported after. */
  dispose(): void;
}

export function searchAsYouType<Result>(options: SearchAsYouTypeOptions<Result>): SearchAsYouType {
  const waitMs = options.waitMs ?? SEARCH_WAIT_MS;
  const minCharacters = options.minCharacters ?? SEARCH_MIN_CHARACTERS;
  let wanted = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: { query: string; controller: AbortController } | undefined;
  let shown: { results: Result; resultsFor: string } | undefined;
  let limitedUntil = 0;
  let disposed = false;

  const report = (state: SearchState<Result>) => {
    if (!disposed) options.onChange(state);
  };
  const previous = () => (shown ? { results: shown.results, resultsFor: shown.resultsFor } : {});

  function abortInFlight(): void {
    inFlight?.controller.abort();
    inFlight = undefined;
  }

  function schedule(ms: number): void {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  }

  function fire(): void {
    timer = undefined;
    const query = wanted;
    if (characters(query) < minCharacters) return;
    // Limited (a 429): nothing goes before Retry-After has passed.
    const limited = limitedUntil - Date.now();
    if (limited > 0) {
      schedule(limited);
      return;
    }
    // The same query is on its way: its answer will serve.
    if (inFlight?.query === query) return;
    abortInFlight();
    const controller = new AbortController();
    inFlight = { query, controller };
    report({ status: 'loading', query, ...previous() });
    options.search(query, controller.signal).then(
      (results) =>
        settle(controller, () => {
          shown = { results, resultsFor: query };
          // Typed on since it was sent: these results show while the newer query waits its turn.
          if (query === wanted) report({ status: 'done', query, results, resultsFor: query });
          else report({ status: 'waiting', query: wanted, results, resultsFor: query });
        }),
      (error: unknown) => settle(controller, () => failed(query, error)),
    );
  }

  /** Runs what an answer means only if it is still the current request's. */
  function settle(controller: AbortController, then: () => void): void {
    if (disposed || controller.signal.aborted || inFlight?.controller !== controller) return;
    inFlight = undefined;
    then();
  }

  function failed(query: string, error: unknown): void {
    const problem =
      error instanceof ApiProblem
        ? error
        : new ApiProblem({
            type: 'network',
            title: 'Search is unreachable',
            status: 0,
            detail: String((error as Error)?.message ?? error),
          });
    if (problem.status === 429) {
      const retryAt = Date.now() + (problem.retryAfterMs ?? DEFAULT_BACKOFF_MS);
      limitedUntil = retryAt;
      report({ status: 'error', query, problem, retryAt });
      schedule(retryAt - Date.now());
      return;
    }
    if (query === wanted) report({ status: 'error', query, problem });
  }

  return {
    input(text) {
      // Unchanged text (a caret move, a modifier key) changes nothing that is already under way.
      if (disposed || (text.trim() === wanted && (timer || inFlight))) return;
      wanted = text.trim();
      if (characters(wanted) < minCharacters) {
        clearTimeout(timer);
        timer = undefined;
        abortInFlight();
        report({ status: 'idle', query: wanted });
        return;
      }
      if (shown?.resultsFor === wanted && !inFlight) {
        clearTimeout(timer);
        timer = undefined;
        report({ status: 'done', query: wanted, results: shown.results, resultsFor: wanted });
        return;
      }
      report({ status: 'waiting', query: wanted, ...previous() });
      schedule(waitMs);
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      abortInFlight();
    },
  };
}
