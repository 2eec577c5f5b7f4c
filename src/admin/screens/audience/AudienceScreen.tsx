/**
 * The Audience area (viewers and up): the visitors of the last half hour;
 * the site's visits over a range of UTC days, each figure beside the period
 * of equal length before it; the daily trend (a chart, and the same numbers
 * as a table); the way from a visit to an inquiry; the goals; and a card per
 * breakdown, each with its CSV. The figures are counted on the server
 * without cookies; the latest minute or so may not have been added yet.
 */
import { useSearchParams } from "react-router";
import {
  AUDIENCE_LABEL,
  AUDIENCE_PATHS,
  type Breakdown,
  changeText,
  type Overview,
  RANGES,
  type RangeName,
  type Totals,
} from "../../../shared/admin/audience.ts";
import { read, withQuery } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { Notice } from "../../components/Notice.tsx";
import { BreakdownCard } from "./BreakdownCard.tsx";
import { FunnelCard } from "./FunnelCard.tsx";
import { decimal, percent, periodText, whole } from "./format.ts";
import { GoalsCard } from "./GoalsCard.tsx";
import { LiveVisitors } from "./LiveVisitors.tsx";
import { type RangeChoice, RangePicker } from "./RangePicker.tsx";
import { TrendChart } from "./TrendChart.tsx";
import "./audience.css";

interface Tile {
  key: keyof Totals;
  label: string;
  show: (value: number | null) => string;
}

const TILES: Tile[] = [
  { key: "visitors", label: "Visitors", show: (n) => whole(n ?? 0) },
  { key: "views", label: "Page views", show: (n) => whole(n ?? 0) },
  { key: "visits", label: "Visits", show: (n) => whole(n ?? 0) },
  { key: "viewsPerVisit", label: "Views per visit", show: decimal },
  { key: "inquiries", label: "Inquiries", show: (n) => whole(n ?? 0) },
  { key: "subscriptions", label: "Subscriptions", show: (n) => whole(n ?? 0) },
  { key: "conversionRate", label: "Conversion", show: percent },
];

/** The breakdown cards, in the screen's order: where visits go, where they come from, who they are. */
const CARDS: Breakdown[] = [
  "page",
  "entry",
  "channel",
  "referrer",
  "utm_campaign",
  "utm_source",
  "utm_medium",
  "insight",
  "device",
  "browser",
];

function choiceFrom(params: URLSearchParams): RangeChoice {
  const asked = params.get("range");
  const range = RANGES.includes(asked as RangeName) ? (asked as RangeName) : "7d";
  if (range !== "custom") return { range };
  return { range, from: params.get("from") ?? undefined, to: params.get("to") ?? undefined };
}

function Change({ now, before }: { now: number | null; before: number | null }) {
  if (now === null || before === null) return <span className="change">–</span>;
  const text = changeText(now, before);
  const tone = now > before ? "up" : now < before ? "down" : "flat";
  return <span className={`change change--${tone}`}>{text}</span>;
}

function Figures({ overview }: { overview: Overview }) {
  return (
    <dl className="tiles">
      {TILES.map(({ key, label, show }) => (
        <div className="tile" key={key}>
          <dt>{label}</dt>
          <dd className="tile-value">{show(overview.totals[key])}</dd>
          <dd className="tile-before">
            <Change now={overview.totals[key]} before={overview.previous[key]} />{" "}
            <span className="quiet">
              <span className="visually-hidden">compared with </span>
              {show(overview.previous[key])} before
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export default function AudienceScreen() {
  const [params, setParams] = useSearchParams();
  const choice = choiceFrom(params);
  const overview = useResource(read("audience.overview", { query: choice }));
  const data = overview.data;
  const nothingYet = data !== undefined && data.totals.visits === 0 && data.previous.visits === 0;
  /** A single day is drawn hour by hour. */
  const per = data?.hours ? "hour" : "day";

  function choose(next: RangeChoice) {
    const query = new URLSearchParams({ range: next.range });
    if (next.range === "custom" && next.from && next.to) {
      query.set("from", next.from);
      query.set("to", next.to);
    }
    setParams(query);
  }

  return (
    <div className="audience">
      <div className="screen-head">
        <div>
          <h1>{AUDIENCE_LABEL}</h1>
          <p className="screen-lead">
            Visits counted on the server, without cookies. Days are UTC days; each figure is shown
            beside the period of the same length before it. Inquiries and subscriptions are those
            the counted visits sent; the inbox and the subscriber list hold every one.
          </p>
        </div>
        <LiveVisitors />
      </div>
      <div className="audience-bar">
        <RangePicker choice={choice} period={data?.period} onChoose={choose} />
        {data ? (
          <p className="audience-period" aria-live="polite">
            <strong>{periodText(data.period)}</strong>{" "}
            <span className="quiet">beside {periodText(data.previousPeriod)}</span>
          </p>
        ) : null}
      </div>
      {overview.error ? <Notice tone="error">{overview.error}</Notice> : null}
      {overview.loading && !data ? <p role="status">Loading…</p> : null}
      {nothingYet ? (
        <p className="audience-empty">
          No visits counted yet in this period or the one before. Figures appear here within a
          minute or two of people visiting the site; bots, link prefetches and signed-in staff are
          never counted.
        </p>
      ) : null}
      {data ? (
        <>
          <Figures overview={data} />
          <section className="card card--wide" aria-labelledby="trend-title">
            <div className="card-head">
              <h2 id="trend-title">Visitors and page views per {per}</h2>
              <a
                className="card-csv"
                href={withQuery(AUDIENCE_PATHS.export, {
                  ...choice,
                  table: data.hours ? "hourly" : "daily",
                })}
                download
                aria-label={`Download CSV: visitors and page views per ${per}`}
              >
                Download CSV
              </a>
            </div>
            <TrendChart
              series={data.series}
              hours={data.hours}
              caption={`Visitors, page views and visits per ${per}, ${periodText(data.period)}`}
            />
          </section>
          <div className="cards">
            <FunnelCard funnel={data.funnel} previous={data.previousFunnel} choice={choice} />
            <GoalsCard choice={choice} />
            {CARDS.map((dimension) => (
              <BreakdownCard key={dimension} dimension={dimension} choice={choice} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
