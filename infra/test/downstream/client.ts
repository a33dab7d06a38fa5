// A downstream program with only the packed client installed: signs in, creates a product,
// reads it back (its own write, at once), finds it by search, and shows a refusal naming the field.
import { ApiProblem, createApiClient, type Product } from '@eventide/client';

// Node keeps no cookies: this fetch keeps the session's, as a browser would.
const jar = new Map<string, string>();
const api = createApiClient({
  baseUrl: process.env.EVENTIDE_URL ?? 'http://localhost:3000',
  readYourWrites: true,
  fetch: async (input, init) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } });
    for (const set of response.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  },
});

const name = process.argv[2] ?? 'Downstream kettle';
await api.auth.signIn({ email: process.env.EVENTIDE_EMAIL ?? '', password: process.env.EVENTIDE_PASSWORD ?? '' });
const created = await api.products.create({ name, price: { amount: 1250, currency: 'EUR' } });
const read: Product = (await api.products.get(created.data.productId)).data;
const found = await api.products.search(name.split(' ').at(-1)!);
let refusal: { status: number; field: string | undefined } | undefined;
try {
  await api.products.search('ke');
} catch (error) {
  if (!(error instanceof ApiProblem)) throw error;
  refusal = { status: error.status, field: error.fieldError('q') };
}
console.log(
  JSON.stringify({
    node: process.versions.node,
    id: created.data.productId,
    version: created.version,
    read: read.name,
    found: found.items.map((hit) => hit.productId),
    refusal,
  }),
);
