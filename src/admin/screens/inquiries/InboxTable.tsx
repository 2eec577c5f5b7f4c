/**
 * The inbox's rows: when each arrived, from whom, what about, where it
 * stands and who has it. The name opens the inquiry; the list's address
 * goes along, so "All inquiries" returns to the same filter and page.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { Link } from "react-router";
import type { InquirySummary } from "../../../shared/admin/inquiries.ts";
import { DataTable } from "../../components/DataTable.tsx";
import { INBOX_ROUTE, personName } from "./format.ts";
import { StackedMoment } from "./Moment.tsx";
import { NotNotifiedBadge } from "./NotNotifiedBadge.tsx";
import { StatusBadge } from "./StatusBadge.tsx";

/** What the detail screen reads from the link's history state. */
export interface FromList {
  listSearch: string;
}

const column = createColumnHelper<InquirySummary>();

/** The server orders and pages the rows; sorting one page in the browser would mislead. */
const fixed = { enableSorting: false } as const;

function columnsFor(listSearch: string) {
  return [
    column.accessor("receivedAt", {
      ...fixed,
      header: "Received",
      cell: (cell) => <StackedMoment iso={cell.getValue()} />,
    }),
    column.display({
      ...fixed,
      id: "name",
      header: "Name",
      cell: ({ row: { original: inquiry } }) => (
        <>
          <Link
            className="inbox-name"
            to={`${INBOX_ROUTE}/${inquiry.id}`}
            state={{ listSearch } satisfies FromList}
          >
            {inquiry.firstName} {inquiry.lastName}
          </Link>
          <span className="inbox-email">{inquiry.email}</span>
        </>
      ),
    }),
    column.accessor("company", {
      ...fixed,
      header: "Company",
      cell: (cell) => cell.getValue() || <span className="inbox-none">Not given</span>,
    }),
    column.accessor("inquiryType", { ...fixed, header: "Type" }),
    column.accessor("status", {
      ...fixed,
      header: "Status",
      cell: ({ row: { original: inquiry } }) => (
        <span className="inbox-badges">
          <StatusBadge status={inquiry.status} />
          <NotNotifiedBadge notified={inquiry.notified} />
        </span>
      ),
    }),
    column.accessor("assignee", {
      ...fixed,
      header: "Assignee",
      cell: (cell) => {
        const assignee = cell.getValue();
        return assignee ? personName(assignee) : <span className="inbox-none">Unassigned</span>;
      },
    }),
  ];
}

interface InboxTableProps {
  inquiries: InquirySummary[];
  listSearch: string;
  empty: string;
}

export function InboxTable({ inquiries, listSearch, empty }: InboxTableProps) {
  return (
    <DataTable
      caption="Inquiries, newest first"
      rows={inquiries}
      columns={columnsFor(listSearch)}
      empty={empty}
      stacks
    />
  );
}
