// A representation kept as JSON text is the one the document's version renders: rendered once per
// version, rendered again for a new version, and the page around it the JSON a serialiser makes.
import { expect, it } from 'vitest';
import type { ReadDocument } from '@eventide/stores/read-store/port.ts';
import { renderedJson, withItems } from './rendered.ts';

const doc = (id: string, version: number, name: string) =>
  ({ id, version, seq: 1, deleted: false, fields: { name } }) as unknown as ReadDocument<'products'>;

it('renders a version once, and a new version again', () => {
  let renders = 0;
  const json = renderedJson<'products'>((fields) => {
    renders++;
    return { shown: (fields as unknown as { name: string }).name };
  });
  expect(json(doc('a', 0, 'Kettle'))).toBe('{"shown":"Kettle"}');
  expect(json(doc('a', 0, 'Kettle'))).toBe('{"shown":"Kettle"}');
  expect(renders).toBe(1);
  expect(json(doc('a', 1, 'Jug'))).toBe('{"shown":"Jug"}');
  expect(json(doc('b', 0, 'Pot'))).toBe('{"shown":"Pot"}');
  expect(renders).toBe(3);
});

it('keeps at most as many as it is told, the least recently used going first', () => {
  let renders = 0;
  const json = renderedJson<'products'>(() => ++renders, 2);
  json(doc('a', 0, 'A'));
  json(doc('b', 0, 'B'));
  json(doc('a', 0, 'A'));
  json(doc('c', 0, 'C'));
  expect(json(doc('a', 0, 'A'))).toBe('1');
  expect(json(doc('b', 0, 'B'))).toBe('4');
});

it('writes a page as JSON.stringify would', () => {
  const items = [{ a: 1 }, { b: 'two"' }];
  const rest = { nextCursor: null, total: 3, page: 1 };
  expect(
    JSON.parse(
      withItems(
        items.map((item) => JSON.stringify(item)),
        rest,
      ),
    ),
  ).toEqual({ items, ...rest });
  expect(withItems([], {})).toBe('{"items":[]}');
});
