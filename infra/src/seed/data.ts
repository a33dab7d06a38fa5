// What `npm run seed` writes: people, a catalogue and orders that look like a shop's, the same
// for the same seed. Product names come from faker's commerce vocabulary; descriptions draw their
// words from English as written (Wikipedia's words by how often they are used) with Zipf's law, so
// a few words are in almost every description and most words are rare, as in real text. Every body
// is checked with the API's own schemas before it is used.
import { Faker, en } from '@faker-js/faker';
import { words as englishWords } from 'popular-english-words';
import { createProductBody, productChanges } from '@eventide/contract/resources/products/schemas.ts';
import { createOrderBody } from '@eventide/contract/resources/orders/schemas.ts';
import { profile } from '@eventide/contract/resources/users/schemas.ts';
import type { OrderLine, OrderPayment } from '@eventide/kernel/entities/order.ts';

/** How the events divide: the share of each kind in the total (orders take several events each). */
export const MIX = { users: 0.02, products: 0.9, orders: 0.08 } as const;

/** Words a description draws from, most used first. */
const VOCABULARY = englishWords.getMostPopularFilter(20_000, (word: string) => /^[a-z]{2,}$/.test(word) && word !== 'page');
/** Cumulative Zipf weights (exponent 1) over the vocabulary, for sampling by rank. */
const ZIPF = (() => {
  const cumulative = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let rank = 0; rank < VOCABULARY.length; rank++) cumulative[rank] = sum += 1 / (rank + 1);
  return cumulative.map((c) => c / sum);
})();

/** A description's sentences, and each sentence's words: how many, at least and at most (uniform). */
const SENTENCES = { min: 1, max: 4 };
const SENTENCE_WORDS = { min: 6, max: 16 };

/**
 * The description word whose share of the seeded products is closest to `share` (the rarest, for
 * a share below what any word reaches): from the Zipf weights and the mean description length, so
 * the same word at every store size, which lets a benchmark compare one query across sizes.
 */
export function descriptionWordWithShare(share: number): string {
  const meanWords = ((SENTENCES.min + SENTENCES.max) / 2) * ((SENTENCE_WORDS.min + SENTENCE_WORDS.max) / 2);
  let best = { rank: 0, distance: Number.POSITIVE_INFINITY };
  for (let rank = 0; rank < VOCABULARY.length; rank++) {
    const weight = ZIPF[rank]! - (rank === 0 ? 0 : ZIPF[rank - 1]!);
    const distance = Math.abs(1 - (1 - weight) ** meanWords - share);
    if (distance <= best.distance) best = { rank, distance };
  }
  return VOCABULARY[best.rank]!;
}

const CURRENCIES = ['EUR', 'EUR', 'EUR', 'USD', 'GBP', 'JPY'] as const;
/** Tax rates shops state, and products that state none. */
const TAX_RATES = [20, 19, 10, 7, 5.5, 0, null] as const;

export function seedData(seed: number) {
  const faker = new Faker({ locale: [en], seed });
  const random = () => faker.number.float({ min: 0, max: 1 });

  function zipfWord(): string {
    const r = random();
    let low = 0;
    let high = ZIPF.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (ZIPF[mid]! < r) low = mid + 1;
      else high = mid;
    }
    return VOCABULARY[low]!;
  }

  function sentence(): string {
    const words = Array.from({ length: faker.number.int(SENTENCE_WORDS) }, zipfWord);
    const text = words.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  function price() {
    const currency = faker.helpers.arrayElement(CURRENCIES);
    // JPY has no minor unit: a price in yen is a whole number of yen.
    const amount = currency === 'JPY' ? faker.number.int({ min: 100, max: 90_000 }) : faker.number.int({ min: 99, max: 99_999 });
    return { amount, currency };
  }

  return {
    random,
    pick: <T>(items: readonly T[]): T => faker.helpers.arrayElement(items),
    int: (min: number, max: number) => faker.number.int({ min, max }),

    user(n: number) {
      const firstName = faker.person.firstName();
      const lastName = faker.person.lastName();
      // The number keeps every address unique across any number of users.
      const email = `${firstName}.${lastName}.${n}@${faker.internet.domainName()}`.toLowerCase().replace(/[^a-z0-9.@-]/g, '');
      return profile.parse({ name: `${firstName} ${lastName}`, email });
    },

    product() {
      return createProductBody.parse({
        name: faker.commerce.productName(),
        description: Array.from({ length: faker.number.int(SENTENCES) }, sentence).join(' '),
        price: price(),
        sku: faker.string.alphanumeric({ length: 10, casing: 'upper' }),
        category: faker.commerce.department(),
        taxRate: faker.helpers.arrayElement(TAX_RATES),
      });
    },

    /**
     * A product's picture as SVG, for the seed to upload: a shape on a backdrop, in colours of its
     * own, as a placeholder a shop might use before its photographs (no text: fonts differ by machine).
     */
    pictureSvg(): string {
      const hue = faker.number.int(359);
      const colour = (h: number, s: number, l: number) => `hsl(${(h + 360) % 360} ${s}% ${l}%)`;
      const shape = faker.helpers.arrayElement([
        `<circle cx="600" cy="430" r="250" fill="url(#object)"/>`,
        `<rect x="370" y="200" width="460" height="460" rx="60" fill="url(#object)"/>`,
        `<path d="M600 170 L860 660 L340 660 Z" fill="url(#object)"/>`,
        `<rect x="300" y="300" width="600" height="280" rx="140" fill="url(#object)"/>`,
      ]);
      return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900" viewBox="0 0 1200 900">
        <defs>
          <linearGradient id="backdrop" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stop-color="${colour(hue, 35, 94)}"/><stop offset="1" stop-color="${colour(hue, 30, 82)}"/>
          </linearGradient>
          <linearGradient id="object" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stop-color="${colour(hue + 30, 70, 62)}"/><stop offset="1" stop-color="${colour(hue - 20, 65, 38)}"/>
          </linearGradient>
        </defs>
        <rect width="1200" height="900" fill="url(#backdrop)"/>
        <ellipse cx="600" cy="720" rx="330" ry="34" fill="${colour(hue, 25, 60)}" opacity=".45"/>
        ${shape}
      </svg>`;
    },

    productChange() {
      return productChanges.parse(faker.datatype.boolean() ? { price: price() } : { description: sentence() });
    },

    /** The payment of an order's lines, as a shop records it: the total, by card mostly, with the payment's reference. */
    payment(lines: readonly OrderLine[]): OrderPayment {
      const amount = { amount: lines.reduce((sum, l) => sum + l.quantity * l.unitPrice.amount, 0), currency: lines[0]!.unitPrice.currency };
      const method = faker.helpers.weightedArrayElement([
        { value: 'card' as const, weight: 7 },
        { value: 'bank-transfer' as const, weight: 2 },
        { value: 'cash' as const, weight: 1 },
      ]);
      return { amount, method, reference: method === 'cash' ? null : `TX-${faker.string.alphanumeric({ length: 12, casing: 'upper' })}` };
    },

    order(userId: string, productIds: readonly string[]) {
      const count = faker.number.int({ min: 1, max: Math.min(5, productIds.length) });
      // Distinct products by index: faker's arrayElements copies the whole array, 4 ms a call among 500k products.
      const chosen = new Set<string>();
      while (chosen.size < count) chosen.add(productIds[faker.number.int(productIds.length - 1)]!);
      const lines = [...chosen].map((productId) => ({ productId, quantity: faker.number.int({ min: 1, max: 4 }) }));
      return createOrderBody.parse({ userId, lines });
    },
  };
}

export type SeedData = ReturnType<typeof seedData>;
