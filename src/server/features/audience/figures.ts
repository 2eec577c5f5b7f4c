/**
 * The Audience area's figures, read from the daily rollups (`audience_days`).
 * Every read of the rollups names one dimension and a range of days, which
 * the index on (dimension, day) answers without walking other dimensions.
 *
 * PostgreSQL answers a sum of bigints as text: each is made a number once,
 * where it is read here.
 *
 * What counts as a conversion: an inquiry or a new subscription sent by a
 * visit that was counted, counted into that visit's own rows when it was
 * made (visits.ts). A lead from anywhere else (an import, the console, a
 * visitor who asked not to be counted) is no conversion, so no rate can pass
 * 100 %: a row's conversions are the visits counted there that converted,
 * each once. An inquiry later marked as spam stays counted, as a view does:
 * the figures say what visits did, the inbox what the firm made of it.
 */
import type { ExpressionBuilder, Kysely } from "kysely";
import type {
  Breakdown,
  BreakdownRow,
  CappedDay,
  DayFigures,
  Funnel,
  HourFigures,
  Period,
  Totals,
} from "../../../shared/admin/audience.ts";
import { WITH_LEADS } from "../../../shared/admin/audience.ts";
import type { AudienceDimension, Database } from "../../platform/db/schema.ts";
import { daysOf } from "./periods.ts";
import type { Counts } from "./tally.ts";

type Db = Kysely<Database>;

/** A sum as either engine answers it (PostgreSQL's bigint sums are text), as a number. */
export const count = (value: number | string | null | undefined) => Number(value ?? 0);

/** The sum of each of `columns` over the rows read, under its own name. */
const summed = <C extends keyof Counts>(
  eb: ExpressionBuilder<Database, "audience_days">,
  columns: readonly C[],
) => columns.map((column) => eb.fn.sum<number | string>(column).as(column));

/** The rate of `part` in `whole`, to four decimals; null when there is no whole. */
export function rateOf(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

/** What the visits of a row (a day, a page, a source) led to. */
interface Conversions {
  conversions: number;
  inquiries: number;
  subscriptions: number;
}

const NO_CONVERSIONS: Conversions = { conversions: 0, inquiries: 0, subscriptions: 0 };

/** Each day's counts of one dimension's value ("total", "") over the period. */
async function dailySums(db: Db, period: Period, dimension: AudienceDimension, value: string) {
  const rows = await db
    .selectFrom("audience_days")
    .select(["day", "views", "visits", "visitors", "conversions", "inquiries", "subscriptions"])
    .where("dimension", "=", dimension)
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .where("value", "=", value)
    .execute();
  return new Map(
    rows.map((row) => [
      row.day,
      {
        views: count(row.views),
        visits: count(row.visits),
        visitors: count(row.visitors),
        conversions: count(row.conversions),
        inquiries: count(row.inquiries),
        subscriptions: count(row.subscriptions),
      },
    ]),
  );
}

/** One entry per day of the period, oldest first, zeros where nothing was counted; and what its visits led to. */
async function dailySeries(
  db: Db,
  period: Period,
): Promise<{ series: DayFigures[]; led: Conversions }> {
  const byDay = await dailySums(db, period, "total", "");
  const led = { ...NO_CONVERSIONS };
  for (const day of byDay.values()) {
    led.conversions += day.conversions;
    led.inquiries += day.inquiries;
    led.subscriptions += day.subscriptions;
  }
  const series = daysOf(period).map((day) => {
    const { views = 0, visits = 0, visitors = 0 } = byDay.get(day) ?? {};
    return { day, views, visits, visitors };
  });
  return { series, led };
}

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, "0"));

/**
 * Each UTC hour ("00" to "23") summed over the period's days, zeros where
 * nothing was counted: a visit counts in each hour it had a view in.
 */
export async function hourlySeries(db: Db, period: Period): Promise<HourFigures[]> {
  const rows = await db
    .selectFrom("audience_days")
    .select((eb) => ["value", ...summed(eb, ["views", "visits", "visitors"])])
    .where("dimension", "=", "hour")
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .groupBy("value")
    .execute();
  const byHour = new Map(rows.map((row) => [row.value, row]));
  return HOURS.map((hour) => {
    const row = byHour.get(hour);
    return {
      hour,
      visitors: count(row?.visitors),
      views: count(row?.views),
      visits: count(row?.visits),
    };
  });
}

/** The period's totals, from its daily series and what its visits led to. */
function totalsOf(series: readonly DayFigures[], led: Conversions): Totals {
  const sum = (key: "views" | "visits" | "visitors") =>
    series.reduce((total, day) => total + day[key], 0);
  const visits = sum("visits");
  const views = sum("views");
  return {
    visitors: sum("visitors"),
    views,
    visits,
    viewsPerVisit: visits === 0 ? null : Math.round((views / visits) * 100) / 100,
    inquiries: led.inquiries,
    subscriptions: led.subscriptions,
    conversionRate: rateOf(led.conversions, visits),
  };
}

/**
 * Every visit, those that reached the contact page, and those of them that
 * sent an inquiry: each step counts visits, and a visit is counted in a
 * step only when it was in the one before (visits.ts).
 */
async function funnelOf(db: Db, period: Period): Promise<Funnel> {
  const rows = await db
    .selectFrom("audience_days")
    .select((eb) => ["value", eb.fn.sum<number | string>("visits").as("visits")])
    .where("dimension", "=", "funnel")
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .groupBy("value")
    .execute();
  const visits = new Map(rows.map((row) => [row.value, count(row.visits)]));
  return {
    landing: visits.get("landing") ?? 0,
    contact: visits.get("contact") ?? 0,
    inquiries: visits.get("inquiry") ?? 0,
  };
}

export interface PeriodFigures {
  series: DayFigures[];
  /** A single day's hours; null for a longer period. */
  hours: HourFigures[] | null;
  totals: Totals;
  funnel: Funnel;
}

/** The series (and a single day's hours), totals and funnel of one period. */
export async function periodFigures(db: Db, period: Period): Promise<PeriodFigures> {
  const [{ series, led }, funnel, hours] = await Promise.all([
    dailySeries(db, period),
    funnelOf(db, period),
    period.days === 1 ? hourlySeries(db, period) : null,
  ]);
  return { series, hours, totals: totalsOf(series, led), funnel };
}

/**
 * The Insight issues sent, by slug: their ids and titles, and the clicks on
 * their e-mails' links over the period.
 */
async function issuesWithClicks(db: Db, period: Period) {
  const rows = await db
    .selectFrom("issues")
    .leftJoin("issue_link_clicks", (join) =>
      join
        .onRef("issue_link_clicks.issue_id", "=", "issues.id")
        .on("issue_link_clicks.day", ">=", period.from)
        .on("issue_link_clicks.day", "<=", period.to),
    )
    .select((eb) => [
      "issues.id",
      "issues.slug",
      "issues.title",
      eb.fn.sum<number | string | null>("issue_link_clicks.clicks").as("clicks"),
    ])
    .where("issues.started_at", "is not", null)
    .groupBy(["issues.id", "issues.slug", "issues.title"])
    .execute();
  return new Map(
    rows.map((row) => [row.slug, { id: row.id, title: row.title, clicks: count(row.clicks) }]),
  );
}

/** A value the period has no visit for: nothing counted but what is added to it. */
const emptyRow = (value: string, withLeads: boolean): BreakdownRow => ({
  value,
  issue: null,
  visitors: 0,
  views: 0,
  visits: 0,
  leads: withLeads ? { inquiries: 0, subscriptions: 0, rate: null } : null,
});

const conversions = (row: BreakdownRow) =>
  row.leads ? row.leads.inquiries + row.leads.subscriptions : 0;

const clicks = (row: BreakdownRow) => row.issue?.clicks ?? 0;

/** Most visits first, then most conversions, most clicks, most views, and the value. */
function byWeight(one: BreakdownRow, other: BreakdownRow): number {
  return (
    other.visits - one.visits ||
    conversions(other) - conversions(one) ||
    clicks(other) - clicks(one) ||
    other.views - one.views ||
    (one.value < other.value ? -1 : one.value > other.value ? 1 : 0)
  );
}

/**
 * A dimension's values over the period, heaviest first: their visits,
 * views and visitors, and for a dimension a visit is tied to from its start
 * (WITH_LEADS), the inquiries and subscriptions its visits made and the
 * rate of converting visits. All of them when `limit` is null (the CSV).
 */
export async function breakdownOf(
  db: Db,
  dimension: Breakdown,
  period: Period,
  limit: number | null,
): Promise<{ rows: BreakdownRow[]; values: number }> {
  const withLeads = WITH_LEADS.includes(dimension);
  const sums = await db
    .selectFrom("audience_days")
    .select((eb) => [
      "value",
      ...summed(eb, ["views", "visits", "visitors", "conversions", "inquiries", "subscriptions"]),
    ])
    .where("dimension", "=", dimension)
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .groupBy("value")
    .execute();
  const rows = sums.map((row): BreakdownRow => {
    const visits = count(row.visits);
    return {
      value: row.value,
      issue: null,
      visitors: count(row.visitors),
      views: count(row.views),
      visits,
      leads: withLeads
        ? {
            inquiries: count(row.inquiries),
            subscriptions: count(row.subscriptions),
            rate: rateOf(count(row.conversions), visits),
          }
        : null,
    };
  });
  if (dimension === "insight") {
    // An issue whose links were clicked in the period is a row even with no
    // visit: its readers may have followed links to other sites only.
    const issues = await issuesWithClicks(db, period);
    const seen = new Set(rows.map((row) => row.value));
    for (const [slug, issue] of issues) {
      if (issue.clicks > 0 && !seen.has(slug)) rows.push(emptyRow(slug, withLeads));
    }
    for (const row of rows) row.issue = issues.get(row.value) ?? null;
  }
  const sorted = rows.sort(byWeight);
  const shown = limit === null ? sorted : sorted.slice(0, limit);
  return { rows: shown, values: rows.length };
}

/**
 * What an Insight issue's links brought, over every day kept: the visits
 * that arrived by them (tagged with the issue's slug) and the inquiries and
 * subscriptions those visits made.
 */
export async function insightTotals(
  db: Db,
  slug: string,
): Promise<{ visits: number; inquiries: number; subscriptions: number }> {
  const row = await db
    .selectFrom("audience_days")
    .select((eb) => summed(eb, ["visits", "inquiries", "subscriptions"]))
    .where("dimension", "=", "insight")
    .where("value", "=", slug)
    .executeTakeFirstOrThrow();
  return {
    visits: count(row.visits),
    inquiries: count(row.inquiries),
    subscriptions: count(row.subscriptions),
  };
}

/** The period's days on which `dimension` met more values than it keeps, oldest first. */
export async function cappedDays(
  db: Db,
  dimension: Breakdown,
  period: Period,
): Promise<CappedDay[]> {
  const rows = await db
    .selectFrom("audience_value_caps")
    .select(["day", "max_values"])
    .where("dimension", "=", dimension)
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .where("overflowed", "=", 1)
    .orderBy("day")
    .execute();
  return rows.map((row) => ({ day: row.day, values: Number(row.max_values) }));
}
