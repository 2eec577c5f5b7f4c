/**
 * A table of records with sortable columns (TanStack Table): each sortable
 * header is a button that says how it sorts, for the keyboard and for
 * screen readers (aria-sort). Filtering is the server's job; this sorts and
 * shows what it was given. A row may open a detail below it, across the table.
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
}

const SORT_WORDS = { asc: "ascending", desc: "descending" } as const;

export function DataTable<Row>({
  caption,
  rows,
  columns,
  empty,
  initialSorting = [],
  detailOf,
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
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled without a pointer
    <section className="table-wrap" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    scope="col"
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
        <tbody>
          {table.getRowModel().rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => {
              const detail = detailOf?.(row.original);
              return (
                <Fragment key={row.id}>
                  <tr>
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                  {detail ? (
                    <tr className="row-detail">
                      <td colSpan={columns.length}>{detail}</td>
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
