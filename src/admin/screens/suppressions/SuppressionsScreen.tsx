/**
 * The suppression list: the addresses that get no mail but the firm's own,
 * because a report said they bounced or complained. Searched and filtered
 * through the URL's query, as the subscribers are; each row opens the report
 * that decided it, and an owner may lift a suppression.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { hasRole } from "../../../shared/admin/roles.ts";
import {
  REASON_FILTERS,
  REASON_LABELS,
  SUPPRESSION_ROUTES,
  SUPPRESSION_TEXTS,
  type SuppressionRow,
  sourceLabel,
  suppressionFilterSchema,
  suppressionListQuerySchema,
} from "../../../shared/admin/suppressions.ts";
import { read, withQuery } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { AddressFilter } from "../../components/AddressFilter.tsx";
import { BreakableAddress } from "../../components/BreakableAddress.tsx";
import { DataTable } from "../../components/DataTable.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Pager } from "../../components/Pager.tsx";
import { formatDay } from "../subscribers/dates.ts";
import { LiftDialog } from "./LiftDialog.tsx";
import { ReasonBadge } from "./ReasonBadge.tsx";
import { ReportDetail } from "./ReportDetail.tsx";
import "./suppressions.css";

const UNFILTERED = suppressionListQuerySchema.parse({});

const reportId = (id: number) => `report-${id}`;

/** What a row offers: its report opened or closed, and lifting for an owner. */
interface RowActions {
  opened: ReadonlySet<number>;
  toggle(id: number): void;
  /** Null for those who may not lift. */
  lift: ((row: SuppressionRow) => void) | null;
}

const column = createColumnHelper<SuppressionRow>();

function columnsWith(actions: RowActions) {
  return [
    column.accessor("email", {
      header: "Address",
      cell: (cell) => (
        <strong className="suppressed-address">
          <BreakableAddress email={cell.getValue()} />
        </strong>
      ),
    }),
    column.accessor("reason", {
      header: "Reason",
      cell: (cell) => <ReasonBadge reason={cell.getValue()} />,
    }),
    column.accessor("since", {
      header: "Since",
      cell: (cell) => (
        <>
          <PhoneLabel>Since </PhoneLabel>
          <time dateTime={cell.getValue()}>{formatDay(cell.getValue())}</time>
        </>
      ),
    }),
    column.accessor((row) => row.report?.source ?? "", {
      id: "source",
      header: "Source",
      cell: (cell) =>
        cell.getValue() ? (
          <>
            <PhoneLabel>Source: </PhoneLabel>
            {sourceLabel(cell.getValue())}
          </>
        ) : (
          "—"
        ),
    }),
    column.display({
      id: "actions",
      header: () => <span className="visually-hidden">Actions</span>,
      cell: (cell) => <RowButtons row={cell.row.original} actions={actions} />,
    }),
  ];
}

export default function SuppressionsScreen() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  // A hand-edited query the server would refuse (a search longer than an address) shows everything.
  const parsed = suppressionListQuerySchema.safeParse(Object.fromEntries(params));
  const { q, reason, page } = parsed.success ? parsed.data : UNFILTERED;
  const list = useResource(read("suppressions.list", { query: { q, reason, page } }));
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const [lifting, setLifting] = useState<SuppressionRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const canLift = hasRole(me.role, "owner");

  const columns = useMemo(
    () =>
      columnsWith({
        opened,
        toggle: (id) =>
          setOpened((now) => {
            const next = new Set(now);
            if (!next.delete(id)) next.add(id);
            return next;
          }),
        lift: canLift ? setLifting : null,
      }),
    [opened, canLift],
  );

  // The lifted row leaves the list, and the focus its button had with it: the heading takes it.
  useEffect(() => {
    if (notice) heading.current?.focus();
  }, [notice]);

  function search(query: URLSearchParams) {
    setNotice(null);
    setParams(query);
  }

  function lifted(row: SuppressionRow) {
    setLifting(null);
    setNotice(SUPPRESSION_TEXTS.lifted(row.email));
    list.reload();
  }

  const filtered = q !== "" || reason !== "all";

  return (
    <div className="suppressions">
      <div className="screen-head">
        <h1 ref={heading} tabIndex={-1}>
          Suppressed addresses
        </h1>
        <a
          className="button"
          href={withQuery(SUPPRESSION_ROUTES.export, { q, reason })}
          download="suppressions.csv"
        >
          Export CSV<span className="visually-hidden"> of the addresses shown</span>
        </a>
        <p className="screen-lead">
          No Insight issue or other mail goes to these addresses: each bounced or marked the mail as
          spam. An address leaves the list when its owner subscribes again and confirms, or when an
          owner of the console lifts it.
        </p>
      </div>
      {notice ? <Notice tone="success">{notice}</Notice> : null}

      <AddressFilter
        key={params.toString()}
        schema={suppressionFilterSchema}
        q={q}
        choice={{
          label: "Reason",
          name: "reason",
          value: reason,
          options: REASON_FILTERS,
          labels: REASON_LABELS,
        }}
        onSearch={search}
      />

      {list.error ? <Notice tone="error">{list.error}</Notice> : null}
      <p className="list-summary" role="status">
        {list.loading ? "Loading…" : list.data ? matchText(list.data.total) : ""}
      </p>
      {list.data ? (
        <>
          <DataTable
            caption="Suppressed addresses, newest first"
            rows={list.data.items}
            columns={columns}
            empty={filtered ? SUPPRESSION_TEXTS.noMatch : SUPPRESSION_TEXTS.empty}
            detailOf={(row) =>
              opened.has(row.id) && row.report ? (
                <ReportDetail id={reportId(row.id)} email={row.email} report={row.report} />
              ) : null
            }
          />
          <Pager
            label="Pages of suppressed addresses"
            page={page}
            pageSize={list.data.pageSize}
            total={list.data.total}
          />
        </>
      ) : null}
      <LiftDialog suppression={lifting} onClose={() => setLifting(null)} onLifted={lifted} />
    </div>
  );
}

/** On a phone, where the rows are cards without the column headers, a cell says what it is. */
function PhoneLabel({ children }: { children: string }) {
  return (
    <span className="phone-label" aria-hidden="true">
      {children}
    </span>
  );
}

function RowButtons({ row, actions }: { row: SuppressionRow; actions: RowActions }) {
  const open = actions.opened.has(row.id);
  return (
    <div className="row-actions">
      {row.report ? (
        <button
          type="button"
          className="button row-action"
          aria-expanded={open}
          aria-controls={open ? reportId(row.id) : undefined}
          onClick={() => actions.toggle(row.id)}
        >
          {open ? "Hide report" : "Show report"}
          <span className="visually-hidden"> on {row.email}</span>
        </button>
      ) : null}
      {actions.lift ? (
        <button
          type="button"
          className="button row-action"
          aria-label={`Lift the suppression of ${row.email}…`}
          onClick={() => actions.lift?.(row)}
        >
          Lift…
        </button>
      ) : null}
    </div>
  );
}

function matchText(total: number): string {
  return total === 1 ? "1 address matches." : `${total} addresses match.`;
}
