/**
 * The Insight issues, newest first: where each stands, when it was or will
 * be sent, and to how many. Editors start a new one from here.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { Link, useLocation } from "react-router";
import type { IssueRow } from "../../../shared/admin/newsletter.ts";
import { hasRole } from "../../../shared/admin/roles.ts";
import { read } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { DataTable } from "../../components/DataTable.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Moment } from "../people/Moment.tsx";
import { IssueStatusBadge } from "./IssueStatusBadge.tsx";
import { type ArrivalState, issueRoute, NEWSLETTER_ROUTE } from "./routes.ts";

const column = createColumnHelper<IssueRow>();

/** The server lists them newest first, which is the order worth reading them in. */
const fixed = { enableSorting: false } as const;

const moment = (iso: string | null) => (iso ? <Moment iso={iso} /> : "—");

const COLUMNS = [
  column.accessor("title", {
    ...fixed,
    header: "Issue",
    cell: ({ row: { original: issue } }) => (
      <>
        <Link className="issue-title" to={issueRoute(issue.id)}>
          {issue.title}
        </Link>
        <span className="issue-byline">by {issue.author}</span>
      </>
    ),
  }),
  column.accessor("status", {
    ...fixed,
    header: "Status",
    cell: (cell) => <IssueStatusBadge status={cell.getValue()} />,
  }),
  column.accessor("scheduledAt", {
    ...fixed,
    header: "Scheduled for",
    cell: (cell) => moment(cell.getValue()),
  }),
  column.accessor("startedAt", {
    ...fixed,
    header: "Started",
    cell: (cell) => moment(cell.getValue()),
  }),
  column.accessor("finishedAt", {
    ...fixed,
    header: "Finished",
    cell: (cell) => moment(cell.getValue()),
  }),
  column.accessor("recipients", {
    ...fixed,
    header: "Recipients",
    cell: (cell) => cell.getValue().toLocaleString("en-GB"),
  }),
];

export function IssueListScreen() {
  const writes = hasRole(useMe().role, "editor");
  const { data, error, loading, reload } = useResource(read("newsletter.list"));
  useKeptCurrent(reload);
  const notice = (useLocation().state as ArrivalState | null)?.notice;

  return (
    <>
      <div className="screen-head">
        <div>
          <h1>Newsletter</h1>
          <p className="newsletter-lead">
            Insight issues, newest first. Each goes to every active subscriber and is then published
            on the site.
          </p>
        </div>
        {writes ? (
          <Link className="button button-primary" to={`${NEWSLETTER_ROUTE}/new`}>
            New issue
          </Link>
        ) : null}
      </div>
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {data ? (
        <div className="issue-list">
          <DataTable
            caption="Insight issues, newest first"
            rows={data.items}
            columns={COLUMNS}
            empty={writes ? "No issues yet. Start the first with New issue." : "No issues yet."}
            stacks
          />
        </div>
      ) : loading ? (
        <p className="loading" role="status">
          Loading the issues…
        </p>
      ) : null}
    </>
  );
}
