/// <reference lib="dom" />
// Search as you type, by the spec's rules (the client's searchAsYouType), with the words of the
// query marked in the results. The query is typed in the header's box (site-search.tsx).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { SearchResult } from '@eventide/client/api-client.ts';
import { searchAsYouType, SEARCH_MIN_CHARACTERS, type SearchState } from '@eventide/client/search-as-you-type.ts';
import { api, formatMoney } from '../api.ts';
import { Loading, ProblemMessage } from '../parts.tsx';
import { useSiteSearch } from '../site-search.tsx';

export function SearchPage() {
  const [state, setState] = useState<SearchState<SearchResult>>({ status: 'idle', query: '' });
  const search = useMemo(
    () => searchAsYouType<SearchResult>({ search: (q, signal) => api.products.search(q, { signal }), onChange: setState }),
    [],
  );
  useEffect(() => () => search.dispose(), [search]);
  const { query } = useSiteSearch();
  // What the header's box holds, as it changes (and on arriving here from another page with it typed).
  useEffect(() => search.input(query), [search, query]);
  const results = 'results' in state ? state.results : undefined;
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search</h1>
      <div aria-live="polite">
        {state.status === 'idle' && <p class="muted">Type at least {SEARCH_MIN_CHARACTERS} characters in the search box above.</p>}
        {(state.status === 'waiting' || state.status === 'loading') && <Loading>Searching…</Loading>}
        {state.status === 'error' && <ProblemMessage problem={state.problem} />}
        {state.status === 'done' && state.results.items.length === 0 && state.results.complete && <p>Nothing matches “{state.query}”.</p>}
        {state.status === 'done' && !state.results.complete && (
          <p class="muted">Only the newest products were searched for all of these words: add or change a word to find older ones.</p>
        )}
      </div>
      {results && results.items.length > 0 && (
        <ul class="cards" aria-label={`Results for ${'resultsFor' in state ? state.resultsFor : ''}`}>
          {results.items.map((product) => (
            <li key={product.productId} class="card">
              <Link href={`/products/${product.productId}`}>
                <strong>
                  <Highlight text={product.name} query={results.q} />
                </strong>
              </Link>
              <span class="price">{formatMoney(product.price)}</span>
              {product.description && (
                <p class="excerpt">
                  <Highlight text={product.description.slice(0, 160)} query={results.q} />
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The text with each word of the query marked where a word of the text starts with it. */
export function Highlight({ text, query }: { text: string; query: string }) {
  const words = query
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return <>{text}</>;
  const pattern = new RegExp(`(${words.join('|')})`, 'giu');
  return <>{text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}</>;
}
