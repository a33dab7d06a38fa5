/// <reference lib="dom" />
// Products by cursor, newest first or as the shopper sorts and narrows them: the next page loads as
// the end of the list scrolls into view, or with the button (keyboards and screen readers need no
// scrolling to get there). A product's page shows its pictures; an admin's, what edits them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import type { Product, ProductListing } from '@eventide/client/api-client.ts';
import type { ApiProblem } from '@eventide/client/problem.ts';
import { api, asProblem, formatMoney } from '../api.ts';
import { Field, Form, useForm } from '../form.tsx';
import { Pending, useLoad } from '../load.tsx';
import { Loading, ProblemMessage } from '../parts.tsx';
import { isAdmin, useSession } from '../session.tsx';
import { addToDraft } from './orders.tsx';
import { ProductForm } from './admin.tsx';
import { History } from '../history.tsx';
import { LiveBadge, useLiveList } from '../live.tsx';
import { Gallery, PicturesEditor, Thumbnail } from '../pictures.tsx';
import { isNewestOfAll, ListingForm } from './product-listing.tsx';

const PAGE = 20;

/** The list with this product in it: in its place when shown, else first. */
function merged(list: Product[], product: Product): Product[] {
  const at = list.findIndex((p) => p.productId === product.productId);
  if (at < 0) return [product, ...list];
  return list[at]!.version >= product.version ? list : list.map((p, i) => (i === at ? product : p));
}

/** Where a category's products are listed. */
export const categoryPath = (category: string) => `/categories/${encodeURIComponent(category)}`;

/** A product's category, as a link to the others in it. */
export function CategoryLink({ category }: { category: string }) {
  return (
    <Link href={categoryPath(category)} class="tag">
      {category}
    </Link>
  );
}

/** Every product, or those of one category; in the order and price range the shopper asks for. */
export function ProductsPage({ category }: { category?: string }) {
  const [items, setItems] = useState<Product[]>([]);
  const [cursor, setCursor] = useState<string | null>('');
  const [listing, setListing] = useState<ProductListing>({});
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const end = useRef<HTMLDivElement>(null);
  const narrowing = (shown: ProductListing) => ({ ...shown, ...(category ? { category } : {}) });

  async function loadMore() {
    if (loading || cursor === null) return;
    setLoading(true);
    setProblem(undefined);
    try {
      const page = await api.products.page({ cursor, limit: PAGE, ...narrowing(listing) });
      // A product already shown (it came live, or with the stream's first load) is not shown twice.
      setItems((before) => [...before, ...page.items.filter((p) => !before.some((b) => b.productId === p.productId))]);
      setCursor(page.nextCursor);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setLoading(false);
    }
  }

  /** The first page in another order or range, in place of the list shown; a refusal is the form's to show. */
  async function relist(next: ProductListing) {
    const page = await api.products.page({ limit: PAGE, ...narrowing(next) });
    setListing(next);
    setItems(page.items);
    setCursor(page.nextCursor);
    setProblem(undefined);
  }

  useEffect(() => void loadMore(), []);
  const newestOfAll = isNewestOfAll(listing);
  const live = useLiveList<Product>('products', {
    // The newest page again, merged in: what was added or changed since the list was loaded. In
    // another order or range a product's place is the server's to say: those shown change in place.
    reload: () =>
      newestOfAll
        ? void api.products.page({ limit: PAGE, ...narrowing(listing) }).then(
            (page) => setItems((shown) => page.items.reduceRight((list, product) => merged(list, product), shown)),
            () => undefined,
          )
        : undefined,
    update: setItems,
    idOf: (p) => p.productId,
    wanted: (p: Product) =>
      newestOfAll ? category === undefined || p.category === category : items.some((shown) => shown.productId === p.productId),
  });
  useEffect(() => {
    const sentinel = end.current;
    if (!sentinel || cursor === null || problem) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: '200px',
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [cursor, loading, problem, listing]);

  return (
    <section aria-labelledby="products-title">
      {category && (
        <p>
          <Link href="/">← All products</Link>
        </p>
      )}
      <h1 id="products-title">
        {category ?? 'Products'} <LiveBadge state={live} />
      </h1>
      <ListingForm onApply={relist} />
      <ul class="cards" aria-busy={loading}>
        {items.map((product) => (
          <li key={product.productId} class="card">
            <Thumbnail product={product} />
            <Link href={`/products/${product.productId}`}>
              <strong>{product.name}</strong>
            </Link>
            <span class="price">{formatMoney(product.price)}</span>
            {product.category && <CategoryLink category={product.category} />}
          </li>
        ))}
      </ul>
      <div ref={end} />
      <ProblemMessage problem={problem} />
      {loading && <Loading>Loading products…</Loading>}
      {cursor !== null && !loading && (
        <button type="button" onClick={() => void loadMore()}>
          {problem ? 'Try again' : 'Load more'}
        </button>
      )}
      {cursor === null && (
        <p class="muted">
          {items.length === 0
            ? isNewestOfAll(listing)
              ? category
                ? 'No products in this category.'
                : 'No products yet.'
              : 'No products in this price range.'
            : `That is all ${items.length} products.`}
        </p>
      )}
    </section>
  );
}

export function ProductPage({ id }: { id: string }) {
  const { session } = useSession();
  const loaded = useLoad(() => api.products.get(id), [id]);
  if (!loaded.value) return <Pending loaded={loaded} loading="Loading the product…" />;
  const { data: product, version } = loaded.value;
  return (
    <article aria-labelledby="product-title">
      <p>
        <Link href="/">← All products</Link>
      </p>
      <h1 id="product-title">{product.name}</h1>
      <Gallery product={product} />
      <p class="price big">
        {formatMoney(product.price)}
        {product.taxRate !== null && <span class="tax"> incl. {product.taxRate.toLocaleString('en')} % tax</span>}
      </p>
      {product.description && <p class="description">{product.description}</p>}
      <dl>
        {product.sku && (
          <>
            <dt>SKU</dt>
            <dd>{product.sku}</dd>
          </>
        )}
        {product.category && (
          <>
            <dt>Category</dt>
            <dd>
              <CategoryLink category={product.category} />
            </dd>
          </>
        )}
      </dl>
      {session ? (
        <AddToOrder userId={session.userId} productId={product.productId} />
      ) : (
        session === null && (
          <p>
            <Link href="/sign-in">Sign in</Link> to order it.
          </p>
        )
      )}
      {isAdmin(session) && version !== undefined && (
        <ProductForm
          product={product}
          version={version}
          onSaved={(saved, savedVersion) => loaded.set((shown) => shown && { ...shown, data: saved, version: savedVersion })}
        />
      )}
      {isAdmin(session) && version !== undefined && (
        <PicturesEditor
          product={product}
          version={version}
          onSaved={(saved, savedVersion) => loaded.set((shown) => shown && { ...shown, data: saved, version: savedVersion })}
        />
      )}
      {isAdmin(session) && version !== undefined && (
        <History at={`${id}@${version}`} me={session?.userId} load={(cursor) => api.products.history(id, cursor ? { cursor } : {})} />
      )}
    </article>
  );
}

function AddToOrder({ userId, productId }: { userId: string; productId: string }) {
  const [orderId, setOrderId] = useState<string>();
  const form = useForm({ quantity: '1' }, async ({ quantity }) =>
    setOrderId((await addToDraft(userId, productId, Number(quantity))).orderId),
  );
  return (
    <Form
      form={form}
      inline
      submit="Add to order"
      sending="Adding…"
      sent={
        orderId && (
          <>
            Added. <Link href={`/orders/${orderId}`}>See the order</Link>
          </>
        )
      }
    >
      <Field label="Quantity" type="number" {...form.field('quantity')} />
    </Form>
  );
}
