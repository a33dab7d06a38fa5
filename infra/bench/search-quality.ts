// How good search is, not how fast: a small catalogue and queries labelled by hand with the
// products a person typing them wants, scored as precision and recall at 10 on the embedded read
// store. The queries include what people type as they go: a word cut short, every word cut short,
// and a letter missing or swapped (docs/api.md#search says what is forgiven).
import { openSqliteReadModels } from '@eventide/stores/read-models/open.ts';
import { productDoc } from '@eventide/testing/read-documents.ts';

/** id: [name, description] */
const CATALOGUE: Record<string, [string, string]> = {
  k1: ['Electric kettle', 'Boils a litre of water in three minutes, with an automatic shut-off.'],
  k2: ['Stainless steel electric kettle', 'A 1.7 litre kettle with a temperature dial for green tea.'],
  k3: ['Stovetop kettle', 'A whistling kettle for gas and induction hobs.'],
  k4: ['Cast iron kettle', 'A heavy Japanese tetsubin that keeps tea warm.'],
  k5: ['Travel kettle', 'A folding silicone kettle for camping trips.'],
  t1: ['Porcelain teapot', 'A white teapot for six cups, with a removable infuser.'],
  t2: ['Glass teapot', 'Watch the leaves unfurl; heat resistant borosilicate glass.'],
  t3: ['Cast iron teapot', 'Enamelled inside, keeps tea hot for an hour.'],
  t4: ['Tea infuser', 'A stainless steel basket for loose leaf tea in a mug or a pot.'],
  m1: ['Ceramic mug', 'Holds 350 ml of coffee or tea; dishwasher safe.'],
  m2: ['Travel mug', 'Double-walled, keeps drinks hot for six hours; fits car cup holders.'],
  m3: ['Espresso cups', 'A set of four small cups with saucers.'],
  c1: ['Coffee grinder', 'Burr grinder with fifteen settings from espresso to French press.'],
  c2: ['French press', 'Makes four cups of coffee; glass jug with a steel frame.'],
  c3: ['Espresso machine', 'Fifteen bar pump, steam wand for milk; makes coffee in a minute.'],
  c4: ['Drip coffee maker', 'Brews ten cups with a keep-warm plate and a timer.'],
  c5: ['Electric milk frother', 'Froths hot or cold milk for cappuccino.'],
  l1: ['Desk lamp', 'An LED lamp with an adjustable arm and three colour temperatures.'],
  l2: ['Floor lamp', 'A tall lamp with a linen shade for the living room.'],
  l3: ['Bedside lamp', 'A small lamp with a touch dimmer.'],
  l4: ['LED bulb', 'Warm white bulb, E27, 806 lumen; lasts 15,000 hours.'],
  f1: ['Oak dining table', 'Seats six; solid oak with an oiled finish.'],
  f2: ['Folding table', 'A light table for the garden or camping.'],
  f3: ['Office chair', 'Ergonomic chair with lumbar support and adjustable arms.'],
  f4: ['Dining chair', 'Solid oak chair to match the dining table.'],
  f5: ['Rocking chair', 'A wooden rocking chair for the porch.'],
  p1: ['Cast iron skillet', 'A 26 cm pan, pre-seasoned, for stove and oven.'],
  p2: ['Non-stick frying pan', 'A 28 cm pan with a ceramic coating.'],
  p3: ['Stock pot', 'An 8 litre pot with a glass lid, for soups and pasta.'],
  p4: ['Dutch oven', 'An enamelled cast iron casserole with a lid.'],
  s1: ['Chef knife', 'A 20 cm blade of German steel for chopping and slicing.'],
  s2: ['Bread knife', 'A serrated knife that cuts crusty bread without crushing it.'],
  s3: ['Knife sharpener', 'A two-stage sharpener for kitchen knives.'],
  s4: ['Cutting board', 'A bamboo board with a juice groove.'],
  b1: ['Water bottle', 'A 750 ml steel bottle that keeps water cold for a day.'],
  b2: ['Water filter jug', 'Filters tap water; holds 2.4 litres.'],
  e1: ['Electric toothbrush', 'Rechargeable, with a two-minute timer.'],
  e2: ['Electric blanket', 'Heats the bed before you get in; three heat settings.'],
};

/** What a person typing each query wants, judged by hand (not by the words the search matches). */
const QUERIES: Array<{ q: string; wanted: string[] }> = [
  { q: 'kettle', wanted: ['k1', 'k2', 'k3', 'k4', 'k5'] },
  { q: 'electric kettle', wanted: ['k1', 'k2'] },
  { q: 'teapot', wanted: ['t1', 't2', 't3'] },
  { q: 'lamp', wanted: ['l1', 'l2', 'l3'] },
  { q: 'coffee', wanted: ['c1', 'c2', 'c3', 'c4'] },
  { q: 'cast iron', wanted: ['k4', 't3', 'p1', 'p4'] },
  { q: 'chair', wanted: ['f3', 'f4', 'f5'] },
  { q: 'knife', wanted: ['s1', 's2', 's3'] },
  // Typed as far as the person got.
  { q: 'kett', wanted: ['k1', 'k2', 'k3', 'k4', 'k5'] },
  { q: 'espre', wanted: ['c3', 'm3', 'c1'] },
  // Every word cut short.
  { q: 'elec kett', wanted: ['k1', 'k2'] },
  { q: 'cast iro tea', wanted: ['t3', 'k4'] },
  // One letter missing or swapped.
  { q: 'ketle', wanted: ['k1', 'k2', 'k3', 'k4', 'k5'] },
  { q: 'kettel', wanted: ['k1', 'k2', 'k3', 'k4', 'k5'] },
  { q: 'teapto', wanted: ['t1', 't2', 't3'] },
];

export interface SearchQuality {
  queries: number;
  products: number;
  precisionAt10: number;
  recallAt10: number;
  perQuery: Array<{ q: string; precision: number; recall: number }>;
}

export async function benchSearchQuality(): Promise<SearchQuality> {
  const { store, search } = openSqliteReadModels(':memory:');
  try {
    const writer = store.writer(await store.activeGeneration());
    await writer.write(
      Object.entries(CATALOGUE).map(([id, [name, description]], i) => ({
        collection: 'products' as const,
        doc: productDoc(id, name, description, { seq: i + 1 }),
        expectedVersion: null,
      })),
      { name: 'quality', position: 1 },
    );
    const perQuery = [];
    for (const { q, wanted } of QUERIES) {
      const found = (await search.search(q, 10)).hits.map((hit) => hit.doc.id);
      const relevant = found.filter((id) => wanted.includes(id)).length;
      // An empty answer to a query that wants something is wrong, not imprecise: precision 0.
      perQuery.push({ q, precision: found.length === 0 ? 0 : relevant / found.length, recall: relevant / wanted.length });
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    return {
      queries: QUERIES.length,
      products: Object.keys(CATALOGUE).length,
      precisionAt10: mean(perQuery.map((p) => p.precision)),
      recallAt10: mean(perQuery.map((p) => p.recall)),
      perQuery,
    };
  } finally {
    await store.close();
  }
}
