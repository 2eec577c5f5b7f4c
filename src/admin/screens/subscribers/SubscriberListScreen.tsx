/**
 * The newsletter's subscribers: counts and growth at a glance, then the list,
 * searched and filtered through the URL's query (so a filtered list can be
 * bookmarked, shared and exported as it is shown).
 */
import { createColumnHelper } from "@tanstack/react-table";
import { Link, useLocation, useSearchParams } from "react-router";
import { hasRole } from "../../../shared/admin/roles.ts";
import {
  STATUS_FILTERS,
  STATUS_LABELS,
  SUBSCRIBER_ROUTES,
  type SubscriberRow,
  subscriberFilterSchema,
  subscriberListQuerySchema,
  viaLabel,
} from "../../../shared/admin/subscribers.ts";
import { read, withQuery } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe } from "../../auth/session.tsx";
import { AddressFilter } from "../../components/AddressFilter.tsx";
import { BreakableAddress } from "../../components/BreakableAddress.tsx";
import { DataTable } from "../../components/DataTable.tsx";
import { Notice } from "../../components/Notice.tsx";
import { Pager } from "../../components/Pager.tsx";
import { formatDay } from "./dates.ts";
import { GrowthChart } from "./GrowthChart.tsx";
import { StatusBadge, SuppressedBadge } from "./StatusBadge.tsx";

const column = createColumnHelper<SubscriberRow>();
const dayOrDash = (value: string | null) =>
  value ? <time dateTime={value}>{formatDay(value)}</time> : "—";
const COLUMNS = [
  column.accessor("email", {
    header: "Address",
    cell: (cell) => (
      <>
        <SubscriberLink id={cell.row.original.id} email={cell.getValue()} />
        {/* A space, not a margin: where the badge wraps to a line of its own, it starts flush. */}{" "}
        <SuppressedBadge
          status={cell.row.original.status}
          suppressed={cell.row.original.suppressed}
        />
      </>
    ),
  }),
  column.accessor("name", {
    header: "Name",
    sortUndefined: "last",
    cell: (cell) => cell.getValue() ?? "—",
  }),
  column.accessor("status", {
    header: "Status",
    cell: (cell) => <StatusBadge status={cell.getValue()} />,
  }),
  column.accessor("subscribedAt", {
    header: "Subscribed",
    cell: (cell) => <time dateTime={cell.getValue()}>{formatDay(cell.getValue())}</time>,
  }),
  column.accessor("importedAt", {
    header: "Imported",
    sortUndefined: "last",
    cell: (cell) => dayOrDash(cell.getValue()),
  }),
  column.accessor("subscribedVia", {
    header: "Via",
    enableSorting: false,
    cell: (cell) => viaLabel(cell.getValue()),
  }),
  column.accessor("unsubscribedAt", {
    header: "Unsubscribed",
    sortUndefined: "last",
    cell: (cell) => dayOrDash(cell.getValue()),
  }),
];

const UNFILTERED = subscriberListQuerySchema.parse({});

/** What a page after an erasure passes along: the notice to show. */
export interface ListState {
  notice?: string;
}

export function SubscriberListScreen() {
  const [params, setParams] = useSearchParams();
  // A hand-edited query the server would refuse (a search longer than an address) shows everything.
  const parsed = subscriberListQuerySchema.safeParse(Object.fromEntries(params));
  const { q, status, page } = parsed.success ? parsed.data : UNFILTERED;
  const list = useResource(read("subscribers.list", { query: { q, status, page } }));
  const stats = useResource(read("subscribers.stats"));
  useKeptCurrent(list.reload);
  useKeptCurrent(stats.reload);
  const notice = (useLocation().state as ListState | null)?.notice;
  const me = useMe();

  return (
    <div className="subscribers">
      <div className="screen-head">
        <h1>Subscribers</h1>
        <div className="screen-actions">
          <Link className="button" to="topics">
            Topics
          </Link>
          {hasRole(me.role, "owner") ? (
            <Link className="button" to="import">
              Import
            </Link>
          ) : null}
          <a
            className="button"
            href={withQuery(SUBSCRIBER_ROUTES.export, { q, status })}
            download="subscribers.csv"
          >
            Export CSV<span className="visually-hidden"> of the subscribers shown</span>
          </a>
        </div>
      </div>
      {notice ? <Notice tone="success">{notice}</Notice> : null}

      <section className="subscriber-stats" aria-label="Counts and growth">
        {stats.error ? <Notice tone="error">{stats.error}</Notice> : null}
        <dl className="stat-tiles">
          <div className="stat-tile">
            <dt>Active</dt>
            <dd>{stats.data?.active ?? "…"}</dd>
          </div>
          {stats.data?.awaitingConfirmation ? (
            <div className="stat-tile">
              <dt>Awaiting confirmation</dt>
              <dd>{stats.data.awaitingConfirmation}</dd>
            </div>
          ) : null}
          {stats.data?.suppressed ? (
            <div className="stat-tile">
              <dt>Suppressed</dt>
              <dd>{stats.data.suppressed}</dd>
            </div>
          ) : null}
          <div className="stat-tile">
            <dt>Unsubscribed</dt>
            <dd>{stats.data?.unsubscribed ?? "…"}</dd>
          </div>
        </dl>
        <div className="panel growth-panel">
          {stats.data ? <GrowthChart months={stats.data.months} /> : null}
        </div>
      </section>

      <AddressFilter
        key={params.toString()}
        schema={subscriberFilterSchema}
        q={q}
        choice={{
          label: "Status",
          name: "status",
          value: status,
          options: STATUS_FILTERS,
          labels: STATUS_LABELS,
        }}
        onSearch={setParams}
        searchLabel="Address or name"
      />

      {list.error ? <Notice tone="error">{list.error}</Notice> : null}
      <p className="list-summary" role="status">
        {list.loading ? "Loading…" : list.data ? matchText(list.data.total) : ""}
      </p>
      {list.data ? (
        <>
          <DataTable
            caption="Subscribers, newest first"
            rows={list.data.items}
            columns={COLUMNS}
            empty="No subscriber matches this search."
          />
          <Pager
            label="Pages of subscribers"
            page={page}
            pageSize={list.data.pageSize}
            total={list.data.total}
          />
        </>
      ) : null}
    </div>
  );
}

/** What the list passes to a subscriber's page: its query, so "back" returns to the same search. */
export interface FromList {
  listSearch: string;
}

function SubscriberLink({ id, email }: { id: number; email: string }) {
  const state: FromList = { listSearch: useLocation().search };
  return (
    <Link to={String(id)} state={state}>
      <BreakableAddress email={email} />
    </Link>
  );
}

function matchText(total: number): string {
  return total === 1 ? "1 subscriber matches." : `${total} subscribers match.`;
}
