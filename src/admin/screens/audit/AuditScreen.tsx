/**
 * The audit log (owner only): every sign-in, failed sign-in, change, export
 * and erasure with who, what, the target, when and from where; newest first,
 * searchable, a page at a time, and kept for the configured time.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { Link, useSearchParams } from "react-router";
import type { AuditEntryView } from "../../../shared/admin/audit-log.ts";
import { useResource } from "../../api/use-resource.ts";
import { DataTable } from "../../components/DataTable.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Moment } from "../people/Moment.tsx";
import { AuditFiltersForm } from "./AuditFiltersForm.tsx";
import {
  type AuditFilters,
  actionLabel,
  auditRequest,
  describeDetail,
  filtersFrom,
} from "./audit-query.ts";
import "../people/shared.css";
import "./audit.css";

const column = createColumnHelper<AuditEntryView>();

const COLUMNS = [
  column.accessor("at", {
    header: "When",
    enableSorting: false,
    cell: ({ getValue }) => <Moment iso={getValue()} />,
  }),
  column.accessor("actor", {
    header: "Who",
    enableSorting: false,
    cell: ({ getValue }) => <span className="audit-actor">{getValue()}</span>,
  }),
  column.accessor("action", {
    header: "What",
    enableSorting: false,
    cell: ({ row: { original: entry } }) => (
      <>
        <span className="audit-action">{actionLabel(entry.action)}</span>
        {entry.detail ? <span className="audit-detail">{describeDetail(entry.detail)}</span> : null}
      </>
    ),
  }),
  column.accessor("target", {
    header: "Target",
    enableSorting: false,
    cell: ({ getValue }) => {
      const target = getValue();
      return target === null ? (
        <span className="audit-none">—</span>
      ) : (
        <span className="audit-target">
          <span className="audit-label" aria-hidden="true">
            Target:{" "}
          </span>
          {target}
        </span>
      );
    },
  }),
  column.accessor("ip", {
    header: "From where",
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="audit-ip">
        <span className="audit-label" aria-hidden="true">
          From:{" "}
        </span>
        {getValue() ?? "—"}
      </span>
    ),
  }),
];

function pageLink(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  if (page > 1) next.set("page", String(page));
  else next.delete("page");
  return `?${next}`;
}

export default function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const request = auditRequest(filters);
  const log = useResource(request.read ?? null);
  const data = log.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  function search(next: Omit<AuditFilters, "page">) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) query.set(key, value);
    setParams(query);
  }

  return (
    <div className="audit-log">
      <div className="screen-head">
        <h1>Audit log</h1>
        <p className="screen-lead">
          Every sign-in, failed sign-in, change, export and erasure: who, what, when and from where.
          {data ? ` Entries are kept for ${data.retentionDays} days, then removed.` : null}
        </p>
      </div>
      <AuditFiltersForm
        key={JSON.stringify(filters)}
        filters={filters}
        actions={data?.actions ?? []}
        fields={request.fields ?? {}}
        onSearch={search}
      />
      {log.error ? <Notice tone="error">{log.error}</Notice> : null}
      <p className="audit-count" role="status">
        {data
          ? `${data.total} ${data.total === 1 ? "entry" : "entries"}, newest first`
          : log.loading
            ? "Loading…"
            : ""}
      </p>
      {data ? (
        <div className="audit-list">
          <DataTable
            caption="Audit log entries, newest first"
            rows={data.entries}
            columns={COLUMNS}
            empty="No entries match this search."
          />
        </div>
      ) : null}
      {data && pages > 1 ? (
        <nav className="audit-pager" aria-label="Pages of the audit log">
          {filters.page > 1 ? (
            <Link className="button" to={pageLink(params, filters.page - 1)}>
              Newer
            </Link>
          ) : null}
          <span>
            Page {filters.page} of {pages}
          </span>
          {filters.page < pages ? (
            <Link className="button" to={pageLink(params, filters.page + 1)}>
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
