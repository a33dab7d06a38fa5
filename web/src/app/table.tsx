/// <reference lib="dom" />
// The pages' tables: a page says its columns, each a heading and how a row shows in it, and gives
// the rows; the markup (headers scoped, a row's name as its header cell) is here.
import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  header: string;
  cell: (row: Row, index: number) => ComponentChildren;
  /** The column that names the row: its cells are the rows' headers, for screen readers. */
  namesRow?: boolean;
  /** A class for a cell that stands out (a count that needs looking at). */
  class?: (row: Row) => string | undefined;
}

export function Table<Row>(props: {
  rows: readonly Row[];
  /** A column given as `false` is left out (one only some people, or some states, see). */
  columns: ReadonlyArray<Column<Row> | false | undefined>;
  rowKey: (row: Row) => string | number;
  label?: string;
}) {
  const columns = props.columns.filter((column): column is Column<Row> => Boolean(column));
  return (
    <table aria-label={props.label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={props.rowKey(row)}>
            {columns.map((column) =>
              column.namesRow ? (
                <th key={column.header} scope="row" class={column.class?.(row)}>
                  {column.cell(row, index)}
                </th>
              ) : (
                <td key={column.header} class={column.class?.(row)}>
                  {column.cell(row, index)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Previous and next through numbered pages (an offset-paged list). */
export function Pager({ page, pages, label, onPage }: { page: number; pages: number; label: string; onPage: (page: number) => void }) {
  return (
    <nav aria-label={label} class="pager">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
