// The growth section of docs/benchmarks.md: each store size's routes against the raw floor, each
// search alone, and every route at the largest size against itself (and the floor against itself)
// at the smaller ones.
import { fmt, ms, ratio } from './format.ts';
import { HEADING } from './headings.ts';
import type { GrowthResults, SizesCompared } from './growth.ts';

/** Throughput at the largest size ÷ at size `i`, from one route's figures per size. */
export const growthOf = (perSize: Array<{ requestsPerSecond: number }>, i: number) =>
  perSize[perSize.length - 1]!.requestsPerSecond / perSize[i]!.requestsPerSecond;

/** A route's growthOf from the interleaved comparison (`of` its floor's), as the report writes it. */
export const grown = (route: SizesCompared['routes'][number], i: number, of: 'ours' | 'floor' = 'ours') => {
  const perSize = of === 'ours' ? route.perSize : route.floorPerSize;
  return perSize ? ratio(growthOf(perSize, i), 1) : '–';
};

export function growthSection(growth: GrowthResults, seconds: number): string[] {
  const { steps, compared, searchAlone, searchLoaded } = growth;
  const largest = steps[steps.length - 1]!;
  const perSizeRow = (route: SizesCompared['routes'][number], i: number) => {
    const ours = route.perSize[i]!;
    const floor = route.floorPerSize?.[i];
    return `| ${route.route} | ${route.notes[i]} | ${fmt(ours.requestsPerSecond)} | ${ours.p99} | ${floor ? fmt(floor.requestsPerSecond) : '–'} | ${floor ? floor.p99 : '–'} | ${floor ? ratio(ours.requestsPerSecond, floor.requestsPerSecond) : '–'} |`;
  };
  return [
    `## ${HEADING.growth}`,
    '',
    `One store seeded with \`npm run seed\` to ${steps.map((g) => fmt(g.events)).join(', ')} events in turn (each size appended to the one before,`,
    'read models built alongside, a copy kept at each size). Then the stores of every size are served at once, each',
    'once it has published its seeded events to its bus (a service started on a fresh seed catches up first), and every',
    `route is loaded by wrk (one thread) for ${seconds} s with 16 connections on each store in turn, smallest to largest, ours and then`,
    `the floor, ${compared.rounds} times over; each figure is the median of its rounds. The floor is a Koa`,
    'handler running the same SELECTs as our read store on the same `read.db` (`infra/bench/servers/raw-reads.ts`): no validation,',
    'no consistency check, no rate limit, no cursor signing, no representation, no ranking. A product’s history (as an',
    'admin: a session looked up per request) reads the product’s stream from `events.db`, folds it and lists each change',
    'field by field; its floor reads the same rows, newest 20, and answers them as stored. Search runs the same words at',
    "every size, from the seed's own word distribution: one no product holds, the rarest word, a word in about 1% of",
    'products (about 10,000 at 1M events; no word of the seed is in as few as 10 there) and one in about 90%, each',
    "with the number of products that hold it at that size; a query's last word also matches as the start of a word,",
    'so it matches at least as many as shown. Those answers grow with the store; a fifth word, a different one at each',
    'size, is held by about 100 products at every size, so that its search does the same work everywhere and only the',
    'store grows (a search ranks at most 100 candidates).',
    '',
    ...steps.flatMap((step, i) => [
      `### ${fmt(step.events)} events (${fmt(step.products)} products)`,
      '',
      `\`npm run seed\` added ${fmt(step.seeded.events)} events, read models included, in ${step.seeded.seconds.toFixed(1)} s (${fmt(step.seeded.events / step.seeded.seconds)} events/s).`,
      '',
      '| route | what | ours (req/s) | ours p99 (ms) | floor (req/s) | floor p99 (ms) | ours ÷ floor |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...compared.routes.map((route) => perSizeRow(route, i)),
      '',
    ]),
    `### ${HEADING.queries}`,
    '',
    `On the store of ${fmt(largest.events)} events, each query alone, one request at a time, ours and the floor in turn (so that`,
    `both meet the same moments of this machine), then under 16 connections (ours, for ${growth.searchLoadedSeconds} s each). Besides the words above: the longest query accepted by words (8), the`,
    'commonest words of product names, which no product holds all at once, and the same with a typo in each; the',
    'longest by characters (200: eight long words that no product holds, each looked up and corrected in the vocabulary).',
    'The floor runs the words as typed (it has no vocabulary to correct them from), so on the misspelt query it finds',
    'nothing and ours finds the products; that row is the price of correcting. Two rows time the bound on',
    'intersections (docs/api.md#search): the 2 commonest words with the 2 commonest name words (two materials, which',
    "never meet: the floor's FTS5 reads all four lists to their ends, ours intersects the two rarest and looks for the",
    "other words in the text of what they match), and the 8 commonest words, which often meet, so that the floor's FTS5",
    "stops early and ours reads more rows than it would. On the rows below the five words, ours does not run the floor's query.",
    '',
    '| query | what | ours p50 alone (ms) | ours p99 alone (ms) | floor p50 alone (ms) | floor p99 alone (ms) | ours ÷ floor at p50 | ours req/s, 16 connections | ours p99, 16 connections (ms) | ours answered |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...searchAlone.map((r, i) => {
      const { ours: loaded, answered } = searchLoaded[i]!;
      return `| \`${r.q}\` | ${r.note} | ${ms(r.ours.p50)} | ${ms(r.ours.p99)} | ${ms(r.floor.p50)} | ${ms(r.floor.p99)} | ${ratio(r.ours.p50, r.floor.p50)} | ${fmt(loaded.requestsPerSecond)} | ${loaded.p99} | ${answered.items} products${answered.complete ? '' : ', `complete: false`'} |`;
    }),
    '',
    'A search stops at its bound on work (docs/api.md#search) and then says so: `complete: false` means an older',
    'product may hold every word. Under 16 connections each request waits for the others on its thread (the service',
    "runs two here, each with its share of the connections), so a query's p99 there is about 8 times its cost alone,",
    'and twice that or more in its tail: 16 connections at 50 ms p99 need every query under about 3 ms of the processor.',
    '',
    `### Each route at ${fmt(largest.events)} events ÷ itself at each smaller size (the target is 0.8 or more against ${fmt(compared.sizes[0]!)})`,
    '',
    'From the same rounds as the tables above.',
    '',
    `| route | ${compared.sizes.map((size) => `at ${fmt(size)} (req/s)`).join(' | ')} | ${compared.sizes
      .slice(0, -1)
      .map((size) => `÷ at ${fmt(size)}`)
      .join(' | ')} | p99 at ${fmt(compared.sizes[compared.sizes.length - 1]!)} (ms) | the floor ÷ itself at ${fmt(compared.sizes[0]!)} |`,
    `|---|${compared.sizes.map(() => '---:|').join('')}${compared.sizes
      .slice(0, -1)
      .map(() => '---:|')
      .join('')}---:|---:|`,
    ...compared.routes.map(
      (route) =>
        `| ${route.route} | ${route.perSize.map((r) => fmt(r.requestsPerSecond)).join(' | ')} | ${compared.sizes
          .slice(0, -1)
          .map((_, i) => grown(route, i))
          .join(' | ')} | ${route.perSize[route.perSize.length - 1]!.p99} | ${grown(route, 0, 'floor')} |`,
    ),
    '',
    `The last column is the raw floor (the same SELECTs on the same store) loaded right after ours on each store in`,
    `the same rounds: where it falls as far as ours or further, what grew is the answer (the same word matching more`,
    `products at the larger size), which the floor has to read as well, not a cost of ours.`,
    '',
    'A search ranks at most the newest 50 products whose names match and the newest 50 that match anywhere',
    "(docs/api.md#search), so a query's cost grows with its matches until it has that many and not after. On the",
    'smallest store the rarest word matches no product and the ~1% word a handful, so it answers next to nothing, where',
    'the largest ranks 100 candidates and answers 20 products: those two rows measure a growing answer, which costs the',
    'floor too (the last column), more than a growing store. The word held by about 100 products at every size is the',
    "measure of the store's own growth, as are the ~90% word and, against the middle size, the ~1% word.",
    '',
    'Where a search spends the time the floor does not (2026-11-24, on the 1M store, ours and the floor in turn): the',
    'request path every route has is two thirds of the difference for `qqxzv` and a third for `the`; the rest is search',
    'itself. With the access log,',
    'the metrics, the session, the consistency check and the rate limit all taken out of a scratch build (each alone',
    'moved the ratio by 0.03 to 0.08), `qqxzv` went from 1.54 of the floor to 1.20, a read by id from 1.41 to 1.14,',
    'and `the` from 1.54 to 1.37. Timed in a script without HTTP, our search for `the` took 307-358 µs and the',
    "floor's queries 206-227 µs: ours reads the name and description of its 50 candidates from the full-text",
    'index (134 µs, against 33 µs for their ids alone), ranks them (54 µs), reads and parses the 20 it returns (60-100',
    'µs, where the floor parses all 50), and looks the words up in the vocabulary (20 µs). Exact words rank above',
    'forgiven ones and names above descriptions only because of that reading and ranking, so it stays.',
    'In the evening, reads stopped asking the store where the read models are on every request (the projector in the',
    'process says when that changes), and a word the vocabulary holds nothing for stopped asking the index (44 to 28',
    'µs). Measured in turn before and after, a read by id and `qqxzv` gained 3-5%; the runs of 19:36 and 20:00 put',
    '`qqxzv` at 1.30 and 1.40, `nps` at 1.47 and 1.43, `links` at 1.41 and 1.51, `the` at 1.51 and 1.47: this',
    "table moves by about 0.1 between runs, more than those changes. Reading the older name matches' text in the",
    'statement that finds them, instead of a second one, measured the same (in one process, in turn) and was left out.',
    'Later, a profile of `qqxzv` on the 1M store still showed every read asking the store (3% of the CPU): the',
    'projector announces its start before the query service opens, and on a store it has caught up with it says',
    'nothing more, so the query service never heard from it; it now reads how often the projector has announced. The',
    "candidates' text is read from FTS5's own table of it, joined to the rows found, instead of column by column from",
    "the index (87 to 69 µs for the 50 of `the`). And a query whose words' lists add up to more than 200,000 entries",
    'is no longer intersected whole (docs/api.md#search): in the runs of 21:33 and 22:19, the 8 commonest name words',
    "took 7.7 and 8.0 ms (p99 11 and 12) where the floor's FTS5 took 12.3 and 12.5 (p99 18 and 27), `the of ceramic",
    'aluminum` 7.4 and 7.7 ms where it took 36 and 40, and the price, the 8 commonest words, 3.4 and 3.9 ms where it',
    'took 1.9 and 2.4. Those runs put `qqxzv` at 1.28 and 1.38, `nps` at 1.30 and 1.34, `links` at 1.33 and 1.39, `the`',
    'at 1.38 and 1.49 (the second run was the busier: its floor answered `the` in 1.03 ms against 0.94), and no query',
    'above 17 ms at p99.',
    '',
    'Why one request at a time costs ours more than its work in a loop (measured on 2026-11-24 at night, on the 1M store):',
    'a request that follows an idle moment finds the processor caches cold. In one process, `qqxzv` took 31 µs back to',
    'back, 76 µs with 1 ms of idling before each search and 102 µs after touching 32 MB; `the` 260, 445 and 458 µs. The',
    "more code and data a request touches, the more it pays, and ours touches more than the floor's: timed inside the",
    'service with a timer around each part (median per request, `qqxzv`; each timer adds a little), the access log line',
    'with its correlation id took 24 µs, the router 21, the rate limit 17, validating the query 17 (0.4 µs in a loop),',
    'the session 16, the representation 11, the metrics 7 and the consistency check 3: about 120 µs, where the search',
    'itself took 50. For `the`, ours also reads the text of its 50 candidates for ranking (108 µs with the text, 55 for',
    'their ids alone, in a loop) and its 20 documents (61 µs to read, 51 to parse). Taken out one at a time and timed',
    "against the unchanged build in turn, the session was 1% of a request's time and the access log 2-3%: no one part",
    'makes the difference, their sum does.',
    '',
    'What each search costs the processor (2026-11-25, on the 1M store, one request at a time, ours and the floor in',
    "turn, each thread's time from /proc): `qqxzv` took the request thread 171 µs of user time against the floor's 112,",
    "`the` 362 against 230, and V8's collector threads 27 against 13 and 75 against 22 (ours makes more objects). Ranking",
    "was the largest part of search's own share: the 100 candidates of `the` took 41 µs in a loop. Their text is ASCII,",
    'so it is now searched for the query words with indexOf instead of a Unicode pattern, and told from other text by',
    'its length in UTF-8 instead of a pattern (30 µs); a property test holds that way to the rule over every word.',
    'Writing the access log line once the answer had left, rather than before, measured within the noise against the',
    'build before it (0-3% faster in one run, 2-7% slower in another) and was left out.',
    '',
    'What the tails of the reads under 16 connections are made of (2026-11-30, `npm start` on the 1M store, wrk for',
    '1 s as above): `breeder` at p99 10.5-35 ms from one load to the next, the same build, the same minute, with a',
    'p50 of 4.4-7 ms. Not the collector: once warm, a request thread promoted 7 KB a scavenge, scavenges paused 0.8',
    'ms, and most loads of 6 s had no full collection (2-6 where they had, 6-12 ms each). Not one thread: with',
    '`HTTP_THREADS=1` the p99 was 19-40 ms, at 1,500-1,700 requests a second. A Node process that only counts the',
    'gaps in its own busy loop saw 5 gaps over 1 ms in 5 s on the idle machine (the longest 3.3 ms), and 130 (up to',
    "16 ms, 305 ms in all) while wrk loaded the server: the server's threads and the load generator are more threads",
    "than the two cores, and the kernel's time slices are the tail. The floor serves on one thread, so it and wrk",
    'fit the two cores.',
    '',
    'What the searches over the postings budget cost, and what their rows cost (2026-12-01, on the 1M store, in one',
    'process, medians of 300 searches, the same answers before and after, scores and `complete` compared byte for',
    'byte on 13 queries): such a search reads up to 500 rows of its rarest words with their name and description to',
    'look for the other words. node:sqlite builds a row object property by property: those 500 rows took 0.77 ms as',
    'objects and 0.29 ms as arrays, and each text was then joined and lowered before the test, two more copies. Read',
    "as arrays, tested field by field, ignoring case on ASCII instead of lowering it, and with the query's words",
    'looked up in the vocabulary in one statement instead of one each (each statement also begins and ends a read of',
    'the file), the 8 commonest name words went from 0.80 to 0.46 ms, the 8 commonest words from 1.06 to 0.70, `the',
    'of plastic rubber` from 0.74 to 0.45, and a search of the name words allocated about 300 KB instead of 480. On',
    'two threads with 16 connections (wrk, 5 s, three interleaved pairs) the 8 name words went from 1,189-1,241 to',
    "1,469-1,541 answers a second. Half of their p99 there is the kernel's slicing: on one thread, 16 connections,",
    'the server pinned to one core and wrk to the other, p99 28 ms against 52-54 unpinned, p50 14 ms both ways.',
    '',
  ];
}
