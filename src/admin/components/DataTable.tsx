/**
 * A table of records with sortable columns (TanStack Table): each sortable
 * header is a button that says how it sorts, for the keyboard and for
 * screen readers (aria-sort). Filtering is the server's job; this sorts and
 * shows what it was given. A row may open a detail below it, across the table.
 *
 * A table that `stacks` becomes a list of cards on a phone (admin.css): each
 * row a card, each cell on its own line after its column's name, so no
 * column, the status least of all, hides past the screen's edge. The table's
 * roles are written out, because a browser drops them from table elements
 * that the style shows as blocks (biome.json lets this file say what is
 * implied).
 */
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { Fragment, type ReactNode, useState } from "react";

interface DataTableProps<Row> {
  /** The table's name, for screen readers. */
  caption: string;
  rows: Row[];
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's own column type takes any value type
  columns: ColumnDef<Row, any>[];
  /** Shown in place of the rows when there are none. */
  empty: string;
  initialSorting?: SortingState;
  /** What shows across the table's width below a row (an opened disclosure); null for nothing. */
  detailOf?: (row: Row) => ReactNode;
  /** On a phone, each row is a card of labelled lines instead of a row that scrolls sideways. */
  stacks?: boolean;
}

const SORT_WORDS = { asc: "ascending", desc: "descending" } as const;

export function DataTable<Row>({
  caption,
  rows,
  columns,
  empty,
  initialSorting = [],
  detailOf,
  stacks = false,
}: DataTableProps<Row>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    // A table wider than a phone scrolls inside this region, which the keyboard can reach.
    <section
      className={stacks ? "table-wrap table-wrap--stacks" : "table-wrap"}
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
      tabIndex={0}
    >
      <table role="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} role="row">
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
                    role="columnheader"
                    aria-sort={sorted ? SORT_WORDS[sorted] : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        className="sort-button"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {label}
                        <span aria-hidden="true">
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
                        </span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody role="rowgroup">
          {table.getRowModel().rows.length === 0 ? (
            <tr role="row">
              <td role="cell" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => {
              const detail = detailOf?.(row.original);
              return (
                <Fragment key={row.id}>
                  <tr role="row">
                    {row.getVisibleCells().map((cell) => {
                      const { header } = cell.column.columnDef;
                      return (
                        <td
                          key={cell.id}
                          role="cell"
                          data-label={typeof header === "string" ? header : undefined}
                        >
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      );
                    })}
                  </tr>
                  {detail ? (
                    <tr className="row-detail" role="row">
                      <td role="cell" colSpan={columns.length}>
                        {detail}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })
          )}
        </tbody>
      </table>
    </section>
  );
}
