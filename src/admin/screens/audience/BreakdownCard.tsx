/**
 * One breakdown of the period (pages, channels, campaigns…): its heaviest
 * values with their visits, a bar behind each name showing its share of
 * the heaviest (drawn, not read: the numbers beside it say the same), and
 * for a dimension a visit is counted in from its start, the inquiries and
 * subscriptions its visits made and the share of its visits that converted.
 * An Insight issue's row also gives its links' clicks and leads to the
 * issue's own figures. Every value is in the table's CSV. A day that met
 * more values than it keeps is named under the table: its further values
 * are in the "(other)" row.
 */

import { Link } from "react-router";
import {
  AUDIENCE_PATHS,
  BREAKDOWN_TITLES,
  type Breakdown,
  type BreakdownRow,
  type CappedDay,
  OTHER_VALUE,
  VALUE_NOUNS,
  valueLabel,
  WITH_LEADS,
} from "../../../shared/admin/audience.ts";
import { read, withQuery } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { issueRoute } from "../newsletter/routes.ts";
import { dayText, percent, whole } from "./format.ts";
import type { RangeChoice } from "./RangePicker.tsx";

/** What each card says when its period has no value. */
const EMPTY: Record<Breakdown, string> = {
  page: "No page view counted in this period.",
  entry: "No visit counted in this period.",
  channel: "No visit counted in this period.",
  referrer: "No visit counted in this period.",
  utm_source: "No visit with a utm_source tag in this period. Links in campaigns carry one.",
  utm_medium: "No visit with a utm_medium tag in this period.",
  utm_campaign: "No visit with a utm_campaign tag in this period.",
  device: "No visit counted in this period.",
  browser: "No visit counted in this period.",
  insight:
    "No visit or click from an Insight e-mail in this period. They appear here when readers follow an issue's links.",
};

const COLUMN: Record<Breakdown, string> = {
  page: "Page",
  entry: "Entry page",
  channel: "Channel",
  referrer: "Referrer",
  utm_source: "Source",
  utm_medium: "Medium",
  utm_campaign: "Campaign",
  device: "Device",
  browser: "Browser",
  insight: "Issue",
};

/** What a card says of the days on which its dimension met its cap (at least one). */
export function cappedText(dimension: Breakdown, capped: readonly CappedDay[]): string {
  const noun = VALUE_NOUNS[dimension];
  const last = capped[capped.length - 1] as CappedDay;
  if (capped.length === 1) {
    return `On ${dayText(last.day)}, more than ${whole(last.values)} different ${noun} were seen; the rest that day are counted under ${OTHER_VALUE}.`;
  }
  const fewest = Math.min(...capped.map((day) => day.values));
  return `On ${capped.length} days of this period, the last on ${dayText(last.day)}, more than ${whole(fewest)} different ${noun} were seen in a day; the rest are counted under ${OTHER_VALUE}.`;
}

function NameCell({
  dimension,
  row,
  top,
}: {
  dimension: Breakdown;
  row: BreakdownRow;
  top: number;
}) {
  const share = top === 0 ? 0 : row.visits / top;
  return (
    <th scope="row" className="bar-cell">
      <span
        className="bar"
        style={{ inlineSize: `${(share * 100).toFixed(1)}%` }}
        aria-hidden="true"
      />
      <span className="bar-name">
        {row.issue ? (
          <>
            <Link to={issueRoute(row.issue.id)}>{row.issue.title}</Link>
            <span className="bar-note">{row.value}</span>
          </>
        ) : (
          valueLabel(dimension, row.value)
        )}
      </span>
    </th>
  );
}

export function BreakdownCard({
  dimension,
  choice,
  wide = false,
}: {
  dimension: Breakdown;
  choice: RangeChoice;
  wide?: boolean;
}) {
  const query = { ...choice, dimension };
  const figures = useResource(read("audience.breakdown", { query }));
  const leads = WITH_LEADS.includes(dimension);
  const title = BREAKDOWN_TITLES[dimension];
  const headingId = `breakdown-${dimension}`;
  const rows = figures.data?.rows ?? [];
  const top = Math.max(0, ...rows.map((row) => row.visits));
  const more = figures.data ? figures.data.values - rows.length : 0;
  return (
    <section className={wide ? "card card--wide" : "card"} aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{title}</h2>
        {rows.length > 0 ? (
          <a
            className="card-csv"
            href={withQuery(AUDIENCE_PATHS.export, { ...choice, table: dimension })}
            download
            aria-label={`Download CSV: ${title}`}
          >
            Download CSV
          </a>
        ) : null}
      </div>
      {figures.error ? <Notice tone="error">{figures.error}</Notice> : null}
      {figures.loading && !figures.data ? (
        <p className="card-quiet" role="status">
          Loading…
        </p>
      ) : null}
      {figures.data && rows.length === 0 ? <p className="card-quiet">{EMPTY[dimension]}</p> : null}
      {rows.length > 0 ? (
        <table className="breakdown">
          <caption className="visually-hidden">
            {title},{" "}
            {figures.data ? `${figures.data.period.from} to ${figures.data.period.to}` : ""}
          </caption>
          <thead>
            <tr>
              <th scope="col">{COLUMN[dimension]}</th>
              <th scope="col" className="num">
                Visits
              </th>
              {dimension === "page" ? (
                <th scope="col" className="num">
                  Views
                </th>
              ) : null}
              {dimension === "insight" ? (
                <th scope="col" className="num">
                  Clicks
                </th>
              ) : null}
              {leads ? (
                <>
                  <th scope="col" className="num">
                    <abbr title="Inquiries">Inq.</abbr>
                  </th>
                  <th scope="col" className="num">
                    <abbr title="Subscriptions">Subs.</abbr>
                  </th>
                  <th scope="col" className="num">
                    <abbr title="Conversion rate: the share of visits that sent an inquiry or subscribed">
                      Conv.
                    </abbr>
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.value}>
                <NameCell dimension={dimension} row={row} top={top} />
                <td className="num">{whole(row.visits)}</td>
                {dimension === "page" ? <td className="num">{whole(row.views)}</td> : null}
                {dimension === "insight" ? (
                  <td className="num">{row.issue ? whole(row.issue.clicks) : "—"}</td>
                ) : null}
                {leads ? (
                  <>
                    <td className="num">{whole(row.leads?.inquiries ?? 0)}</td>
                    <td className="num">{whole(row.leads?.subscriptions ?? 0)}</td>
                    <td className="num">{percent(row.leads?.rate ?? null)}</td>
                  </>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {more > 0 ? <p className="card-more">{whole(more)} more in the CSV.</p> : null}
      {figures.data && figures.data.capped.length > 0 ? (
        <p className="card-capped">{cappedText(dimension, figures.data.capped)}</p>
      ) : null}
    </section>
  );
}
