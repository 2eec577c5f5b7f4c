/**
 * `npm run bench:audience`: the Audience area's queries over a year of
 * generated rollups, on SQLite and on PostgreSQL (when TEST_DATABASE_URL or
 * --database-url names a server; a database of its own is made and dropped).
 *
 * Two years of days are written (the 12 months asked for and the 12 before,
 * which each figure is shown beside): every day a total, 400 pages and 300
 * entry pages (a long tail: every one with at least a view), 200 referrers,
 * 50 campaigns with 20 sources and 8 media, 5 channels, 3 device classes,
 * 12 browsers, 24 Insight issues and the funnel's two steps, about 1,030
 * rows a day, with each dimension's row of its cap on values (the referrers
 * over it one day in thirty); and in every row but the pages', about 1 %
 * of its visits converting with an inquiry and 2 % with a subscription,
 * with the funnel's last step. Then each of the area's queries for
 * the last 12 months (the goals with GOALS_MAX page goals) is run RUNS times (after a few unmeasured runs) through
 * the same functions the routes call, and its p50 and p99 printed beside two
 * baselines of the same run: a plain `select count(*)` of the rollups and
 * the overview of the last 7 days. Target: every query under 200 ms p99.
 * Prints a Markdown table for docs/benchmarks.md.
 */
import { parseArgs } from "node:util";
import { sql } from "kysely";
import {
  breakdownOf,
  cappedDays,
  goalFigures,
  periodFigures,
  periodFor,
  previousOf,
} from "../src/server/features/audience/index.ts";
import type { DatabaseHandle } from "../src/server/platform/db/connection.ts";
import type { AudienceDimension } from "../src/server/platform/db/schema.ts";
import {
  BREAKDOWNS,
  type Breakdown,
  GOALS_MAX,
  type Period,
} from "../src/shared/admin/audience.ts";

const { values: args } = parseArgs({ options: { "database-url": { type: "string" } } });
if (args["database-url"]) process.env.TEST_DATABASE_URL = args["database-url"];
const { ENGINES, openMigrated } = await import("../test/support/engines.ts");

const RUNS = Number(process.env.RUNS ?? 100);
const WARM_UP = 5;
const DAYS = 2 * 365;
const NOW = Date.parse("2026-11-27T12:00:00.000Z");
const DAY_MS = 86_400_000;
// 9 values a row: under SQLite's 32,766 variables a statement.
const ROWS_PER_STATEMENT = 3_000;

/** A deterministic pseudo-random sequence, so both engines get the same rows. */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const VALUES: [AudienceDimension, string[]][] = [
  ["page", names("/page-", 400)],
  ["entry", names("/page-", 300)],
  ["referrer", ["", ...names("site-", 199).map((name) => `${name}.example`)]],
  ["utm_campaign", names("campaign-", 50)],
  ["utm_source", names("source-", 20)],
  ["utm_medium", names("medium-", 8)],
  ["channel", ["search", "direct", "social", "email", "other"]],
  ["device", ["desktop", "mobile", "tablet"]],
  ["browser", names("Browser ", 12)],
  ["insight", names("issue-", 24)],
];

type Row = {
  day: string;
  dimension: AudienceDimension;
  value: string;
  views: number;
  visits: number;
  visitors: number;
  conversions: number;
  inquiries: number;
  subscriptions: number;
};

/** A row of `visits` visits, three views each, with what about 3 % of them led to (none for a page). */
function row(day: string, dimension: AudienceDimension, value: string, visits: number): Row {
  const led = dimension === "page" || dimension === "funnel";
  const inquiries = led ? 0 : Math.round(visits / 100);
  const subscriptions = led ? 0 : Math.round(visits / 50);
  return {
    day,
    dimension,
    value,
    views: visits * 3,
    visits,
    visitors: visits,
    conversions: inquiries + subscriptions,
    inquiries,
    subscriptions,
  };
}

/** One day's rows: a long tail over each dimension's values (Zipf-like weights). */
function dayRows(day: string, random: () => number): Row[] {
  const visits = 2_000 + Math.round(random() * 3_000);
  const rows: Row[] = [
    row(day, "total", "", visits),
    row(day, "funnel", "landing", visits),
    row(day, "funnel", "contact", Math.round(visits / 10)),
    row(day, "funnel", "inquiry", Math.round(visits / 100)),
  ];
  for (const [dimension, values] of VALUES) {
    const weights = values.map((_, i) => 1 / (i + 1) ** 1.1);
    const sum = weights.reduce((a, b) => a + b, 0);
    values.forEach((value, i) => {
      rows.push(
        row(day, dimension, value, Math.max(1, Math.round((visits * (weights[i] ?? 0)) / sum))),
      );
    });
  }
  return rows;
}

const dayAgo = (n: number) => new Date(NOW - n * DAY_MS).toISOString().slice(0, 10);

async function writeRollups(database: DatabaseHandle): Promise<number> {
  const random = sequence(42);
  let rows: Row[] = [];
  let written = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    await database.db.insertInto("audience_days").values(rows).execute();
    written += rows.length;
    rows = [];
  };
  for (let ago = DAYS - 1; ago >= 0; ago -= 1) {
    rows.push(...dayRows(dayAgo(ago), random));
    if (rows.length >= ROWS_PER_STATEMENT) await flush();
  }
  await flush();
  return written;
}

/** Each day's row of each dimension's cap on values: the referrers over it one day in thirty. */
async function writeCaps(database: DatabaseHandle): Promise<void> {
  for (let ago = DAYS - 1; ago >= 0; ago -= 1) {
    await database.db
      .insertInto("audience_value_caps")
      .values(
        VALUES.map(([dimension, values]) => ({
          day: dayAgo(ago),
          dimension,
          max_values: 2000,
          admitted: values.length,
          overflowed: dimension === "referrer" && ago % 30 === 0 ? 1 : 0,
        })),
      )
      .execute();
  }
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function time(work: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < WARM_UP; i += 1) await work();
  const took: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await work();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return { p50: percentile(took, 50), p99: percentile(took, 99) };
}

/** The overview route's work: the period and the one before. */
const overview = (database: DatabaseHandle, period: Period) =>
  Promise.all([periodFigures(database.db, period), periodFigures(database.db, previousOf(period))]);

/** The breakdown route's work: the values, and the days the dimension met its cap. */
const breakdown = (
  database: DatabaseHandle,
  dimension: Breakdown,
  period: Period,
  limit: number | null,
) =>
  Promise.all([
    breakdownOf(database.db, dimension, period, limit),
    cappedDays(database.db, dimension, period),
  ]);

const ms = (value: number) => value.toFixed(1);

const results: string[] = [];
for (const engine of ENGINES) {
  const testDb = await engine.create();
  const database = await openMigrated(testDb);
  try {
    let started = performance.now();
    const rollups = await writeRollups(database);
    await writeCaps(database);
    const writeSeconds = (performance.now() - started) / 1000;
    // What PostgreSQL's autovacuum does to a table that only grows (since
    // version 13 inserts alone start it): its statistics, and the visibility
    // map that lets the index answer without reading the table.
    if (database.engine === "postgres") {
      await sql`vacuum analyze audience_days, audience_value_caps`.execute(database.db);
    }
    console.error(
      `${engine.engine}: ${rollups} rollup rows written in ${writeSeconds.toFixed(0)} s`,
    );
    // As many page goals as the firm may name, each a page of the long tail.
    const pages = await database.db
      .selectFrom("audience_days")
      .select("value")
      .distinct()
      .where("dimension", "=", "page")
      .orderBy("value")
      .limit(GOALS_MAX)
      .execute();
    await database.db
      .insertInto("audience_goals")
      .values(pages.map(({ value }) => ({ path: value })))
      .execute();
    const year = periodFor({ range: "12m" }, NOW);
    const week = periodFor({ range: "7d" }, NOW);
    const cases: [string, () => Promise<unknown>][] = [
      [
        "baseline: select count(*) from audience_days",
        () =>
          database.db
            .selectFrom("audience_days")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirst(),
      ],
      ["baseline: overview, last 7 days", () => overview(database, week)],
      ["overview, 12 months (and the 12 before)", () => overview(database, year)],
      ...BREAKDOWNS.map((dimension: Breakdown): [string, () => Promise<unknown>] => [
        `breakdown ${dimension}, 12 months, top 10`,
        () => breakdown(database, dimension, year, 10),
      ]),
      ["CSV of every page, 12 months", () => breakdownOf(database.db, "page", year, null)],
      [`goals, 12 months (${GOALS_MAX} pages)`, () => goalFigures(database.db, year)],
      [
        "days the referrers met their cap, 12 months (in each breakdown above)",
        () => cappedDays(database.db, "referrer", year),
      ],
    ];
    started = performance.now();
    for (const [name, work] of cases) {
      const { p50, p99 } = await time(work);
      const verdict = name.startsWith("baseline") ? "" : p99 < 200 ? "yes" : "**no**";
      results.push(`| ${engine.engine} | ${name} | ${ms(p50)} | ${ms(p99)} | ${verdict} |`);
      console.error(`${engine.engine}: ${name}: p50 ${ms(p50)} ms, p99 ${ms(p99)} ms`);
    }
  } finally {
    await database.db.destroy();
    await testDb.drop();
  }
}

console.log(`Runs per query: ${RUNS} (after ${WARM_UP} unmeasured), ${DAYS} days of rollups.\n`);
console.log("| Engine | Query | p50 ms | p99 ms | < 200 ms p99 |");
console.log("|---|---|---|---|---|");
for (const line of results) console.log(line);
