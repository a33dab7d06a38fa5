// A statement with a bound LIMIT is prepared once, not again at every execution (LIMIT_PLACEHOLDER,
// sqlite-file.ts). SQLite asks a connection's authorizer about every table and column a statement
// reads each time it compiles one, so the calls after the first prepare count its re-preparations.
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { LIMIT_PLACEHOLDER } from './sqlite-file.ts';

/** How many times the authorizer was asked while a page of `sql` was read three times, with three limits. */
function compilesWhileReading(sql: string): number {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE pages (seq INTEGER PRIMARY KEY, body TEXT)');
  const insert = db.prepare('INSERT INTO pages (body) VALUES (?)');
  for (let i = 0; i < 50; i++) insert.run(`body ${i}`);
  let asked = 0;
  db.setAuthorizer(() => {
    asked++;
    return 0; // SQLITE_OK
  });
  const page = db.prepare(sql);
  const prepared = asked;
  expect(page.all(20).length).toBe(20);
  expect(page.all(21).length).toBe(21);
  expect(page.all(20).length).toBe(20);
  db.close();
  return asked - prepared;
}

it('reads a page with a bound LIMIT without preparing its statement again', () => {
  expect(compilesWhileReading(`SELECT seq, body FROM pages ORDER BY seq DESC LIMIT ${LIMIT_PLACEHOLDER}`)).toBe(0);
});

it('would prepare it again at every page with a bare LIMIT ? (why the placeholder exists)', () => {
  expect(compilesWhileReading('SELECT seq, body FROM pages ORDER BY seq DESC LIMIT ?')).toBeGreaterThan(0);
});
