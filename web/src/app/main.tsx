/// <reference lib="dom" />
// The web app: a page per journey, routed in the URL's fragment (/#/products/…), with one
// navigation that says who is signed in.
import { render } from 'preact';
import { Link, Route, Router, Switch } from 'wouter-preact';
import { useHashLocation } from 'wouter-preact/use-hash-location';
import { AccountPage, SignInPage, SignUpPage } from './pages/account.tsx';
import { ProductPage, ProductsPage } from './pages/products.tsx';
import { SearchPage } from './pages/search.tsx';
import { AdminPage } from './pages/admin.tsx';
import { Lazy } from './parts.tsx';
import { OrdersPage } from './pages/orders.tsx';
import { OrderPage } from './pages/order-page.tsx';
import { DocumentPage, DocumentsPage } from './pages/documents.tsx';
import { isAdmin, SessionProvider, useSession } from './session.tsx';
import { LiveProvider } from './live.tsx';
import { SearchBox, SiteSearchProvider } from './site-search.tsx';

function Navigation() {
  const { session } = useSession();
  return (
    <nav aria-label="Main">
      <Link href="/" class="brand">
        Eventide
      </Link>
      <Link href="/">Products</Link>
      {session && <Link href="/orders">Orders</Link>}
      {session && <Link href="/documents">Documents</Link>}
      {isAdmin(session) && <Link href="/admin">Admin</Link>}
      {isAdmin(session) && <Link href="/operations">Operations</Link>}
      {isAdmin(session) && <Link href="/webhooks">Webhooks</Link>}
      <SearchBox />
      {session === undefined ? null : session ? (
        <Link href="/account" class="push">
          {session.user?.name ?? 'Account'}
        </Link>
      ) : (
        <>
          <Link href="/sign-in" class="push">
            Sign in
          </Link>
          <Link href="/sign-up">Sign up</Link>
        </>
      )}
    </nav>
  );
}

/** The fragment routes pages, so skipping to the content moves focus itself (not a #main link). */
function SkipLink() {
  return (
    <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
      Skip to content
    </button>
  );
}

/** The operator's console: a chunk of its own, for admins only. */
const operations = () => import('./pages/operations.tsx');
/** Webhooks: admins only too. */
const webhooks = () => import('./pages/webhooks.tsx');

function App() {
  return (
    <SessionProvider>
      <LiveProvider>
        <SiteSearchProvider>
          <Router hook={useHashLocation}>
            <SkipLink />
            <header>
              <Navigation />
            </header>
            <main id="main" tabIndex={-1}>
              <Switch>
                <Route path="/">
                  <ProductsPage />
                </Route>
                <Route path="/products/:id">{(params) => <ProductPage id={params.id} />}</Route>
                <Route path="/categories/:name">
                  {(params) => <ProductsPage key={params.name} category={decodeURIComponent(params.name)} />}
                </Route>
                <Route path="/search">
                  <SearchPage />
                </Route>
                <Route path="/sign-in">
                  <SignInPage />
                </Route>
                <Route path="/sign-up">
                  <SignUpPage />
                </Route>
                <Route path="/orders">
                  <OrdersPage />
                </Route>
                <Route path="/orders/:id">{(params) => <OrderPage id={params.id} />}</Route>
                <Route path="/documents">
                  <DocumentsPage />
                </Route>
                <Route path="/documents/:id">{(params) => <DocumentPage id={params.id} />}</Route>
                <Route path="/admin">
                  <AdminPage />
                </Route>
                <Route path="/operations">
                  <Lazy load={operations} what="console">
                    {(module) => <module.OperationsPage />}
                  </Lazy>
                </Route>
                <Route path="/operations/streams/:streamId">
                  {(params) => (
                    <Lazy load={operations} what="console">
                      {(module) => <module.StreamPage streamId={decodeURIComponent(params.streamId)} />}
                    </Lazy>
                  )}
                </Route>
                <Route path="/webhooks">
                  <Lazy load={webhooks} what="webhooks">
                    {(module) => <module.WebhooksPage />}
                  </Lazy>
                </Route>
                <Route path="/webhooks/:id">
                  {(params) => (
                    <Lazy load={webhooks} what="webhooks">
                      {(module) => <module.WebhookPage id={params.id} />}
                    </Lazy>
                  )}
                </Route>
                <Route path="/account">
                  <AccountPage />
                </Route>
                <Route>
                  <p>
                    There is no page here. <Link href="/">See the products</Link>.
                  </p>
                </Route>
              </Switch>
            </main>
          </Router>
        </SiteSearchProvider>
      </LiveProvider>
    </SessionProvider>
  );
}

const root = document.getElementById('app')!;
// The page's own "Loading…" goes: render adds to what the container holds.
root.replaceChildren();
render(<App />, root);
