/// <reference lib="dom" />
// The search box in the header, on every page: what is typed there is the search page's query
// (search.tsx runs it as the spec says, as you type), and typing on any other page goes there.
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';

interface SiteSearch {
  query: string;
  setQuery(query: string): void;
}

const SearchContext = createContext<SiteSearch>({ query: '', setQuery: () => {} });

export function SiteSearchProvider({ children }: { children: ComponentChildren }) {
  const [query, setQuery] = useState('');
  return <SearchContext.Provider value={{ query, setQuery }}>{children}</SearchContext.Provider>;
}

export const useSiteSearch = () => useContext(SearchContext);

export const SEARCH_LABEL = 'Search products';

export function SearchBox() {
  const { query, setQuery } = useSiteSearch();
  const [location, navigate] = useLocation();
  const toResults = () => {
    if (location !== '/search') navigate('/search');
  };
  return (
    <search class="site-search">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          toResults();
        }}
      >
        <label for="site-search" class="visually-hidden">
          {SEARCH_LABEL}
        </label>
        <input
          id="site-search"
          type="search"
          placeholder="Search products"
          autocomplete="off"
          value={query}
          onInput={(event) => {
            setQuery((event.target as HTMLInputElement).value);
            toResults();
          }}
        />
      </form>
    </search>
  );
}
