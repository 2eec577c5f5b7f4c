/**
 * The inbox: newest first, filtered by type, status and words (kept in the
 * address), fifty to a page, with how many are new at a glance and the
 * current filter's rows as a CSV download. It stays current: read again
 * every half minute while in view, and when the person comes back to it.
 */
import { Link, useLocation, useSearchParams } from "react-router";
import { INQUIRY_PATHS, type InquiryFilter } from "../../../shared/admin/inquiries.ts";
import { read, withQuery } from "../../api/client.ts";
import { useKeptCurrent } from "../../api/use-kept-current.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { InboxFilters } from "./InboxFilters.tsx";
import { InboxTable } from "./InboxTable.tsx";
import { filterOf, type InboxQuery, inboxParams, inboxQueryFrom } from "./inbox-query.ts";
import { TurnedAway } from "./TurnedAway.tsx";

/** How often an open inbox asks for inquiries that came in since. */
export const INBOX_REFRESH_MS = 30_000;

/** What a screen that leads back here may say: an erasure's outcome. */
export interface InboxState {
  notice?: string;
}

export function InboxScreen() {
  const [params, setParams] = useSearchParams();
  const notice = (useLocation().state as InboxState | null)?.notice;
  const query = inboxQueryFrom(params);
  const filter = filterOf(query);
  const { data, error, loading, reload } = useResource(
    read("inquiries.list", { query: { ...filter, page: query.page } }),
  );
  useKeptCurrent(reload, INBOX_REFRESH_MS);
  // A new filter starts at its first page, and replaces the address rather than adding to the
  // history: choosing in a list with the arrow keys would otherwise leave a step per option.
  const apply = (next: InquiryFilter) =>
    setParams(inboxParams({ ...next, page: 1 }), { replace: true });

  return (
    <>
      <div className="screen-head">
        <div>
          <h1>Inquiries</h1>
          {data ? (
            <p className="inbox-glance">
              <strong>{data.counts.new}</strong> new
              {filter.type || filter.q ? " in this view" : ""}
            </p>
          ) : null}
          <TurnedAway />
        </div>
        <a className="button" href={withQuery(INQUIRY_PATHS.export, filter)} download>
          Export CSV
        </a>
      </div>
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <InboxFilters filter={filter} counts={data?.counts} types={data?.types} onApply={apply} />
      {error ? <Notice tone="error">{error}</Notice> : null}
      {data ? (
        <div className="inbox-results" aria-busy={loading}>
          <InboxTable
            inquiries={data.inquiries}
            listSearch={params.toString()}
            empty={
              query.page > 1
                ? "There is nothing on this page."
                : filter.type || filter.status || filter.q
                  ? "No inquiries match this filter."
                  : "No inquiries yet."
            }
          />
          {data.total > 0 ? (
            <Pager page={data.page} pageSize={data.pageSize} total={data.total} query={query} />
          ) : null}
        </div>
      ) : loading ? (
        <p className="loading" role="status">
          Loading inquiries…
        </p>
      ) : null}
    </>
  );
}

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  query: InboxQuery;
}

function Pager({ page, pageSize, total, query }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const linkTo = (to: number) => `?${new URLSearchParams(inboxParams({ ...query, page: to }))}`;
  return (
    <nav className="inbox-pager" aria-label="Pages of inquiries">
      <p role="status">
        {first <= last
          ? `Showing ${first}–${last} of ${total} ${total === 1 ? "inquiry" : "inquiries"}`
          : `${total} ${total === 1 ? "inquiry" : "inquiries"} in all`}
      </p>
      {pages > 1 ? (
        <div className="inbox-pager-links">
          {page > 1 ? (
            <Link className="button" to={linkTo(page - 1)}>
              Previous<span className="visually-hidden"> page</span>
            </Link>
          ) : null}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link className="button" to={linkTo(page + 1)}>
              Next<span className="visually-hidden"> page</span>
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
