/// <reference lib="dom" />
// How a shopper orders and narrows the products: a sort, and a price range in one currency. Prices
// are typed in the currency's units (12.50) and asked for in minor units (1250), as the API keeps
// them; the server checks the range, and its refusal is shown at the field it names.
import type { ProductListing, ProductSort } from '@eventide/client/api-client.ts';
import { fractionDigits } from '@eventide/kernel/money.ts';
import { Choice, Field, Form, useForm } from '../form.tsx';

/** Each order the API offers, as a shopper reads it. */
const SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest first',
  price: 'Price: low to high',
  '-price': 'Price: high to low',
  name: 'Name: A to Z',
  '-name': 'Name: Z to A',
};

/** The currencies offered for a price range: those the shop prices in. */
const CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY'];

export interface ListingValues extends Record<string, string> {
  sort: string;
  currency: string;
  minPrice: string;
  maxPrice: string;
}

export const NO_LISTING: ListingValues = { sort: 'newest', currency: 'EUR', minPrice: '', maxPrice: '' };

/** A typed amount (12.50, or 12,50), or NaN for text that is not one. */
const amountOf = (text: string) => (/^\d+([.,]\d*)?$/.test(text.trim()) ? Number(text.trim().replace(',', '.')) : Number.NaN);
/** What is wrong with a typed amount, if anything: said here, as the server would say it in minor units. */
const amountError = (text: string) => (text.trim() === '' || !Number.isNaN(amountOf(text)) ? undefined : 'Type an amount, such as 12.50');
/** Typed units as minor units. */
const minorUnits = (text: string, currency: string) => Math.round(amountOf(text) * 10 ** fractionDigits(currency));

/** What the form asks the API for: a currency only with a range. */
export function listingQuery(values: ListingValues): ProductListing {
  const min = values.minPrice.trim();
  const max = values.maxPrice.trim();
  const ranged = min !== '' || max !== '';
  return {
    ...(values.sort === 'newest' ? {} : { sort: values.sort as ProductSort }),
    ...(ranged ? { currency: values.currency } : {}),
    ...(min !== '' ? { minPrice: minorUnits(min, values.currency) } : {}),
    ...(max !== '' ? { maxPrice: minorUnits(max, values.currency) } : {}),
  };
}

/** Whether products come newest first and unnarrowed: live updates can place a new one first. */
export const isNewestOfAll = (listing: ProductListing) => listing.sort === undefined && listing.currency === undefined;

export function ListingForm({ onApply }: { onApply: (listing: ProductListing) => Promise<void> }) {
  const form = useForm(NO_LISTING, async (values) => {
    if (amountError(values.minPrice) || amountError(values.maxPrice)) return;
    await onApply(listingQuery(values));
  });
  return (
    <Form form={form} submit="Show" sending="Loading…" label="Sort and filter" class="listing" inline>
      <Choice label="Sort" options={SORT_LABELS} {...form.field('sort')} />
      <Field label="Price from" {...form.field('minPrice')} error={amountError(form.values.minPrice)} />
      <Field label="Price to" {...form.field('maxPrice')} error={amountError(form.values.maxPrice)} />
      <Choice label="Currency" options={Object.fromEntries(CURRENCIES.map((code) => [code, code]))} {...form.field('currency')} />
    </Form>
  );
}
