// The headings of docs/benchmarks.md that other parts of the page link to (the targets table
// points at the section where a missed target's cause is measured), written once for both.
export const HEADING = {
  eventStore: 'Embedded event store: appends against raw SQLite inserts',
  signUps: 'POST /users against a Koa handler making the same durable writes',
  readPath: 'Where a read spends its time',
  growth: 'Growth: the routes at each store size, against raw SELECTs',
  queries: 'Every kind of query on the largest store',
  threads: 'Reads on several threads',
  longStreams: 'Commands on a long stream',
  readSide: 'Read side and projection lag (embedded SQLite)',
  kafka: 'Event distribution over Kafka',
  collab: 'Collaborative editing',
  startup: 'Start-up and idle memory',
  memory: 'Memory after abuse',
  postgres: 'The stores on PostgreSQL: appends against raw INSERTs and Emmett, reads against raw SQL',
} as const;

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replaceAll(' ', '-');

/** A link to a section of the same page. */
export const sectionLink = (heading: string) => `[${heading}](#${anchorOf(heading)})`;
