/**
 * The Audience area's figures, read from the daily rollups (`audience_days`)
 * and from the leads (inquiries, subscriptions) with their recorded source.
 * Every read of the rollups names one dimension and a range of days, which
 * the index on (dimension, day) answers without walking other dimensions.
 *
 * PostgreSQL answers a sum of bigints as text: each is made a number once,
 * where it is read here.
 *
 * What counts as a conversion: an inquiry not marked spam, made in the
 * period; a subscription made in the period (by when it was asked for),
 * whether or not its address has been confirmed yet or has unsubscribed
 * since: the visit did what the site asked of it, and what the address does
 * later is the subscriber list's figure.
 */
import type { Kysely } from "kysely";
import type {
  Breakdown,
  BreakdownRow,
  CappedDay,
  DayFigures,
  Funnel,
  Period,
  Totals,
} from "../../../shared/admin/audience.ts";
import { WITH_LEADS } from "../../../shared/admin/audience.ts";
import type { AudienceDimension, Database } from "../../platform/db/schema.ts";
import { addDays, daysOf, startOf } from "./periods.ts";

type Db = Kysely<Database>;

/** The source column a lead records for each breakdown it can be tied to. */
const SOURCE_COLUMN = {
  entry: "source_entry_page",
  channel: "source_channel",
  referrer: "source_referrer",
  utm_source: "source_utm_source",
  utm_medium: "source_utm_medium",
  utm_campaign: "source_utm_campaign",
} as const;
type SourceColumn = (typeof SOURCE_COLUMN)[keyof typeof SOURCE_COLUMN];

const count = (value: number | string | null | undefined) => Number(value ?? 0);

/** The rate of `part` in `whole`, to four decimals; null when there is no whole. */
export function rateOf(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

/** Each day's sums of one dimension's value ("total", "") over the period. */
async function dailySums(db: Db, period: Period, dimension: AudienceDimension, value: string) {
  const rows = await db
    .selectFrom("audience_days")
    .select(["day", "views", "visits", "visitors"])
    .where("dimension", "=", dimension)
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .where("value", "=", value)
    .execute();
  return new Map(
    rows.map((row) => [
      row.day,
      { views: count(row.views), visits: count(row.visits), visitors: count(row.visitors) },
    ]),
  );
}

/** One entry per day of the period, oldest first, zeros where nothing was counted. */
export async function dailySeries(db: Db, period: Period): Promise<DayFigures[]> {
  const byDay = await dailySums(db, period, "total", "");
  return daysOf(period).map((day) => ({
    day,
    ...(byDay.get(day) ?? { views: 0, visits: 0, visitors: 0 }),
  }));
}

/** The leads made in the period: inquiries not marked spam, and subscriptions. */
export async function leadCounts(
  db: Db,
  period: Period,
): Promise<{ inquiries: number; subscriptions: number }> {
  const since = startOf(period.from);
  const until = startOf(addDays(period.to, 1));
  const [inquiries, subscriptions] = await Promise.all([
    db
      .selectFrom("inquiries")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("created_at", ">=", since)
      .where("created_at", "<", until)
      .where("status", "!=", "spam")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("subscribed_at", ">=", since)
      .where("subscribed_at", "<", until)
      .executeTakeFirstOrThrow(),
  ]);
  return { inquiries: count(inquiries.n), subscriptions: count(subscriptions.n) };
}

/** The period's totals, from its daily series and its leads. */
export function totalsOf(
  series: readonly DayFigures[],
  leads: { inquiries: number; subscriptions: number },
): Totals {
  const sum = (key: "views" | "visits" | "visitors") =>
    series.reduce((total, day) => total + day[key], 0);
  const visits = sum("visits");
  const views = sum("views");
  return {
    visitors: sum("visitors"),
    views,
    visits,
    viewsPerVisit: visits === 0 ? null : Math.round((views / visits) * 100) / 100,
    ...leads,
    conversionRate: rateOf(leads.inquiries + leads.subscriptions, visits),
  };
}

/** Every visit, those that reached the contact page, and the inquiries made. */
export async function funnelOf(db: Db, period: Period, inquiries: number): Promise<Funnel> {
  const rows = await db
    .selectFrom("audience_days")
    .select((eb) => ["value", eb.fn.sum<number | string>("visits").as("visits")])
    .where("dimension", "=", "funnel")
    .where("day", ">=", period.from)
    .where("day", "<=", period.to)
    .groupBy("value")
    .execute();
  const visits = new Map(rows.map((row) => [row.value, count(row.visits)]));
  return { landing: visits.get("landing") ?? 0, contact: visits.get("contact") ?? 0, inquiries };
}

export interface PeriodFigures {
  series: DayFigures[];
  totals: Totals;
  funnel: Funnel;
}

/** The series, totals and funnel of one period. */
export async function periodFigures(db: Db, period: Period): Promise<PeriodFigures> {
  const [series, leads] = await Promise.all([dailySeries(db, period), leadCounts(db, period)]);
  const funnel = await funnelOf(db, period, leads.inquiries);
  return { series, totals: totalsOf(series, leads), funnel };
}

/** Per value of a source column: the leads made in the period that recorded it. */
async function leadsBySource(db: Db, period: Period, column: SourceColumn) {
  const since = startOf(period.from);
  const until = startOf(addDays(period.to, 1));
  const [inquiries, subscriptions] = await Promise.all([
    db
      .selectFrom("inquiries")
      .select((eb) => [eb.ref(column).as("value"), eb.fn.countAll<number | string>().as("n")])
      .where("created_at", ">=", since)
      .where("created_at", "<", until)
      .where("status", "!=", "spam")
      .where(column, "is not", null)
      .groupBy(column)
      .execute(),
    db
      .selectFrom("subscriptions")
      .select((eb) => [eb.ref(column).as("value"), eb.fn.countAll<number | string>().as("n")])
      .where("subscribed_at", ">=", since)
      .where("subscribed_at", "<", until)
      .where(column, "is not", null)
      .groupBy(column)
      .execute(),
  ]);
  const byValue = new Map<string, { inquiries: number; subscriptions: number }>();
  const entry = (value: string) => {
    let found = byValue.get(value);
    if (!found) {
      found = { inquiries: 0, subscriptions: 0 };
      byValue.set(value, found);
    }
    return found;
  };
  for (const row of inquiries) if (row.value !== null) entry(row.value).inquiries = count(row.n);
  for (const row of subscriptions) {
    if (row.value !== null) entry(row.value).subscriptions = count(row.n);
  }
  return byValue;
}

/** The titles of the Insight issues whose slugs are given. */
async function issueTitles(db: Db, slugs: string[]): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const rows = await db
    .selectFrom("issues")
    .select(["slug", "title"])
    .where("slug", "in", slugs)
    .execute();
  return new Map(rows.map((row) => [row.slug, row.title]));
}

const conversions = (row: BreakdownRow) =>
  row.leads ? row.leads.inquiries + row.leads.subscriptions : 0;

/** Most visits first, then most conversions, most views, and the value. */
function byWeight(one: BreakdownRow, other: BreakdownRow): number {
  return (
    other.visits - one.visits ||
    conversions(other) - conversions(one) ||
    other.views - one.views ||
    (one.value < other.value ? -1 : one.value > other.value ? 1 : 0)
  );
}

/**
 * A dimension's values over the period, heaviest first: their visits,
 * views and visitors, and for a dimension a lead records, the leads that
 * recorded each and the rate of them per visit. A value with leads but no
 * counted visit is listed too (its rate is null). All of them when `limit`
 * is null (the CSV).
 */
export async function breakdownOf(
  db: Db,
  dimension: Breakdown,
  period: Period,
  limit: number | null,
): Promise<{ rows: BreakdownRow[]; values: number }> {
  const column = WITH_LEADS.includes(dimension)
    ? SOURCE_COLUMN[dimension as keyof typeof SOURCE_COLUMN]
    : null;
  const [sums, leads] = await Promise.all([
    db
      .selectFrom("audience_days")
      .select((eb) => [
        "value",
        eb.fn.sum<number | string>("views").as("views"),
        eb.fn.sum<number | string>("visits").as("visits"),
        eb.fn.sum<number | string>("visitors").as("visitors"),
      ])
      .where("dimension", "=", dimension)
      .where("day", ">=", period.from)
      .where("day", "<=", period.to)
      .groupBy("value")
      .execute(),
    column ? leadsBySource(db, period, column) : null,
  ]);
  const rows = new Map<string, BreakdownRow>();
  for (const row of sums) {
    rows.set(row.value, {
      value: row.value,
      title: null,
      visitors: count(row.visitors),
      views: count(row.views),
      visits: count(row.visits),
      leads: null,
    });
  }
  if (leads) {
    for (const value of leads.keys()) {
      if (!rows.has(value)) {
        rows.set(value, { value, title: null, visitors: 0, views: 0, visits: 0, leads: null });
      }
    }
    for (const row of rows.values()) {
      const made = leads.get(row.value) ?? { inquiries: 0, subscriptions: 0 };
      row.leads = { ...made, rate: rateOf(made.inquiries + made.subscriptions, row.visits) };
    }
  }
  const sorted = [...rows.values()].sort(byWeight);
  const shown = limit === null ? sorted : sorted.slice(0, limit);
  if (dimension === "insight") {
    const titles = await issueTitles(
      db,
      shown.map((row) => row.value),
    );
    for (const row of shown) row.title = titles.get(row.value) ?? null;
  }
  return { rows: shown, values: rows.size };
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
