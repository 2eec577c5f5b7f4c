/**
 * The Audience area's routes on both engines, over rollups written
 * straight into the database: each figure of a range and of the
 * period before it, the daily series, the funnel, the breakdowns with
 * their conversions and rates, the days a breakdown met its cap of
 * values, the Insight issues' titles, the CSV
 * (formulas neutralised, the export audited), the refusals of a bad range,
 * and the gate (a viewer reads; no session is refused).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUDIENCE_PATHS,
  AUDIENCE_TEXTS,
  type BreakdownAnswer,
  type Overview,
} from "../../../src/shared/admin/audience.ts";
import { AUTH_TEXTS } from "../../../src/shared/admin/auth.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { writeClicks, writeDays, writeIssue } from "../../support/audience-figures.ts";
import { anonymous, type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";

/** A Friday: the last 7 days are 21 to 27 November, the 7 before them 14 to 20 November. */
const NOW = Date.parse("2026-11-27T10:00:00.000Z");

async function seed(t: TestApp) {
  await writeDays(t.database, [
    // The totals: two days in the last 7, one in the 7 before, one in neither.
    // What the visits led to is counted in their own rows (the counting's
    // tests, and the mixed population of conversions.test.ts, show how).
    {
      day: "2026-11-21",
      dimension: "total",
      views: 20,
      visits: 5,
      visitors: 5,
      conversions: 1,
      subscriptions: 1,
    },
    {
      day: "2026-11-27",
      dimension: "total",
      views: 30,
      visits: 10,
      visitors: 8,
      conversions: 2,
      inquiries: 2,
    },
    {
      day: "2026-11-20",
      dimension: "total",
      views: 12,
      visits: 4,
      visitors: 4,
      conversions: 2,
      inquiries: 1,
      subscriptions: 1,
    },
    { day: "2026-11-13", dimension: "total", views: 900, visits: 300, visitors: 250 },
    { day: "2026-11-21", dimension: "funnel", value: "landing", visits: 5 },
    { day: "2026-11-27", dimension: "funnel", value: "landing", visits: 10 },
    { day: "2026-11-27", dimension: "funnel", value: "contact", visits: 3 },
    { day: "2026-11-27", dimension: "funnel", value: "inquiry", visits: 2 },
    { day: "2026-11-20", dimension: "funnel", value: "landing", visits: 4 },
    { day: "2026-11-20", dimension: "funnel", value: "contact", visits: 1 },
    { day: "2026-11-20", dimension: "funnel", value: "inquiry", visits: 1 },
    {
      day: "2026-11-21",
      dimension: "channel",
      value: "search",
      views: 9,
      visits: 3,
      visitors: 3,
      conversions: 1,
      subscriptions: 1,
    },
    {
      day: "2026-11-27",
      dimension: "channel",
      value: "search",
      views: 18,
      visits: 6,
      visitors: 5,
      conversions: 2,
      inquiries: 2,
    },
    { day: "2026-11-27", dimension: "channel", value: "direct", views: 12, visits: 4, visitors: 3 },
    {
      day: "2026-11-20",
      dimension: "channel",
      value: "social",
      views: 12,
      visits: 4,
      visitors: 4,
      conversions: 2,
      inquiries: 1,
      subscriptions: 1,
    },
    {
      day: "2026-11-21",
      dimension: "entry",
      value: "/wedo",
      views: 20,
      visits: 5,
      visitors: 5,
      conversions: 1,
      subscriptions: 1,
    },
    {
      day: "2026-11-27",
      dimension: "entry",
      value: "/",
      views: 30,
      visits: 10,
      visitors: 8,
      conversions: 2,
      inquiries: 2,
    },
    {
      day: "2026-11-27",
      dimension: "utm_campaign",
      value: "spring",
      views: 3,
      visits: 2,
      visitors: 2,
      conversions: 1,
      inquiries: 1,
    },
    // Today's hours (the rest of the day had no view); an hour of another day.
    { day: "2026-11-27", dimension: "hour", value: "08", views: 12, visits: 4, visitors: 4 },
    { day: "2026-11-27", dimension: "hour", value: "09", views: 18, visits: 7, visitors: 6 },
    { day: "2026-11-26", dimension: "hour", value: "09", views: 5, visits: 2, visitors: 2 },
    { day: "2026-11-21", dimension: "page", value: "/wedo", views: 8, visits: 5 },
    { day: "2026-11-27", dimension: "page", value: "/", views: 12, visits: 10 },
    { day: "2026-11-27", dimension: "page", value: "/weare", views: 6, visits: 4 },
    { day: "2026-11-27", dimension: "page", value: "/contact-us", views: 4, visits: 3 },
    { day: "2026-11-25", dimension: "insight", value: "q4-outlook", views: 9, visits: 7 },
    { day: "2026-11-26", dimension: "insight", value: "gone-issue", views: 2, visits: 2 },
    { day: "2026-11-27", dimension: "referrer", value: '=HYPERLINK("x")', views: 1, visits: 1 },
    { day: "2026-11-27", dimension: "referrer", value: "google.com", views: 9, visits: 6 },
  ]);
  const outlook = await writeIssue(t.database, "q4-outlook", "The fourth quarter, in numbers");
  await writeClicks(t.database, outlook, { "2026-11-10": 5, "2026-11-25": 3, "2026-11-26": 1 });
  // Its readers followed its links to other sites only: no visit came of it.
  const elsewhere = await writeIssue(t.database, "links-elsewhere", "Reading list");
  await writeClicks(t.database, elsewhere, { "2026-11-27": 2 });
}

describe.each(ENGINES)("the Audience area's figures on $engine", (engine) => {
  let t: TestApp;
  let viewer: ConsoleClient;
  beforeAll(async () => {
    t = await startApp(engine, {}, { now: () => NOW });
    await createAccount(t.database, "viewer", "viewer@firm.example");
    viewer = await signIn(t.app, "viewer@firm.example");
    await seed(t);
  });
  afterAll(() => t.close());

  async function overview(query: string): Promise<Overview> {
    const response = await viewer.request("GET", `${AUDIENCE_PATHS.overview}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  async function breakdown(query: string): Promise<BreakdownAnswer> {
    const response = await viewer.request("GET", `${AUDIENCE_PATHS.breakdown}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it("gives the last 7 days beside the 7 before, day by day, with the funnel", async () => {
    const answer = await overview("range=7d");
    expect(answer.period).toEqual({ from: "2026-11-21", to: "2026-11-27", days: 7 });
    expect(answer.previousPeriod).toEqual({ from: "2026-11-14", to: "2026-11-20", days: 7 });
    expect(answer.totals).toEqual({
      visitors: 13,
      views: 50,
      visits: 15,
      viewsPerVisit: 3.33,
      inquiries: 2,
      subscriptions: 1,
      conversionRate: 0.2,
    });
    expect(answer.previous).toEqual({
      visitors: 4,
      views: 12,
      visits: 4,
      viewsPerVisit: 3,
      inquiries: 1,
      subscriptions: 1,
      conversionRate: 0.5,
    });
    const zero = { views: 0, visits: 0, visitors: 0 };
    expect(answer.series).toEqual([
      { day: "2026-11-21", views: 20, visits: 5, visitors: 5 },
      { day: "2026-11-22", ...zero },
      { day: "2026-11-23", ...zero },
      { day: "2026-11-24", ...zero },
      { day: "2026-11-25", ...zero },
      { day: "2026-11-26", ...zero },
      { day: "2026-11-27", views: 30, visits: 10, visitors: 8 },
    ]);
    expect(answer.hours).toBeNull();
    expect(answer.funnel).toEqual({ landing: 15, contact: 3, inquiries: 2 });
    expect(answer.previousFunnel).toEqual({ landing: 4, contact: 1, inquiries: 1 });
  });

  it("cuts today, 30 days, 12 months and a custom range in UTC days", async () => {
    const today = await overview("range=today");
    expect([today.period, today.previousPeriod]).toEqual([
      { from: "2026-11-27", to: "2026-11-27", days: 1 },
      { from: "2026-11-26", to: "2026-11-26", days: 1 },
    ]);
    expect(today.totals.visits).toBe(10);
    // A single day is told hour by hour, all 24 of them.
    expect(today.hours).toHaveLength(24);
    expect(today.hours?.slice(7, 11)).toEqual([
      { hour: "07", views: 0, visits: 0, visitors: 0 },
      { hour: "08", views: 12, visits: 4, visitors: 4 },
      { hour: "09", views: 18, visits: 7, visitors: 6 },
      { hour: "10", views: 0, visits: 0, visitors: 0 },
    ]);
    expect(today.totals.inquiries).toBe(2);
    expect(today.previous.visits).toBe(0);
    expect(today.previous.viewsPerVisit).toBeNull();
    expect(today.previous.conversionRate).toBeNull();

    const month = await overview("range=30d");
    expect(month.period).toEqual({ from: "2026-10-29", to: "2026-11-27", days: 30 });
    expect(month.totals.visits).toBe(319);
    expect(month.series).toHaveLength(30);

    const year = await overview("range=12m");
    expect(year.period).toEqual({ from: "2025-11-28", to: "2026-11-27", days: 365 });
    expect(year.previousPeriod).toEqual({ from: "2024-11-28", to: "2025-11-27", days: 365 });
    expect(year.totals.views).toBe(962);

    const custom = await overview("range=custom&from=2026-11-20&to=2026-11-21");
    expect(custom.period).toEqual({ from: "2026-11-20", to: "2026-11-21", days: 2 });
    expect(custom.previousPeriod).toEqual({ from: "2026-11-18", to: "2026-11-19", days: 2 });
    expect(custom.totals).toMatchObject({ visits: 9, views: 32, inquiries: 1, subscriptions: 2 });
  });

  it("ties conversions to channels, entry pages and campaigns, with their rates", async () => {
    const channels = await breakdown("range=7d&dimension=channel");
    expect(channels.values).toBe(2);
    expect(channels.rows).toEqual([
      {
        value: "search",
        issue: null,
        visitors: 8,
        views: 27,
        visits: 9,
        leads: { inquiries: 2, subscriptions: 1, rate: 0.3333 },
      },
      {
        value: "direct",
        issue: null,
        visitors: 3,
        views: 12,
        visits: 4,
        leads: { inquiries: 0, subscriptions: 0, rate: 0 },
      },
    ]);
    const before = await breakdown("range=custom&from=2026-11-14&to=2026-11-20&dimension=channel");
    expect(before.rows).toEqual([
      {
        value: "social",
        issue: null,
        visitors: 4,
        views: 12,
        visits: 4,
        leads: { inquiries: 1, subscriptions: 1, rate: 0.5 },
      },
    ]);

    const entries = await breakdown("range=7d&dimension=entry");
    expect(entries.rows.map(({ value, visits, leads }) => ({ value, visits, leads }))).toEqual([
      { value: "/", visits: 10, leads: { inquiries: 2, subscriptions: 0, rate: 0.2 } },
      { value: "/wedo", visits: 5, leads: { inquiries: 0, subscriptions: 1, rate: 0.2 } },
    ]);

    const campaigns = await breakdown("range=7d&dimension=utm_campaign");
    expect(campaigns.rows).toEqual([
      {
        value: "spring",
        issue: null,
        visitors: 2,
        views: 3,
        visits: 2,
        leads: { inquiries: 1, subscriptions: 0, rate: 0.5 },
      },
    ]);
  });

  it("lists the top pages up to the limit, and names the Insight issues with their clicks", async () => {
    const pages = await breakdown("range=7d&dimension=page&limit=2");
    expect(pages.values).toBe(4);
    expect(
      pages.rows.map(({ value, visits, views, leads }) => ({ value, visits, views, leads })),
    ).toEqual([
      { value: "/", visits: 10, views: 12, leads: null },
      { value: "/wedo", visits: 5, views: 8, leads: null },
    ]);
    const insight = await breakdown("range=7d&dimension=insight");
    // The clicks are the period's (not the 5 of 2026-11-10); an issue that
    // brought clicks and no visit has its row.
    expect(
      insight.rows.map(({ value, issue, visits }) => ({
        value,
        title: issue?.title,
        clicks: issue?.clicks,
        visits,
      })),
    ).toEqual([
      { value: "q4-outlook", title: "The fourth quarter, in numbers", clicks: 4, visits: 7 },
      { value: "gone-issue", title: undefined, clicks: undefined, visits: 2 },
      { value: "links-elsewhere", title: "Reading list", clicks: 2, visits: 0 },
    ]);
    expect(insight.values).toBe(3);
  });

  it("names the days on which a breakdown met more values than it keeps", async () => {
    const caps = (day: string, overflowed: number, values = 2000) => ({
      day,
      dimension: "referrer" as const,
      max_values: values,
      admitted: values,
      overflowed,
    });
    await t.database.db
      .insertInto("audience_value_caps")
      .values([
        caps("2026-11-22", 1),
        caps("2026-11-25", 0),
        caps("2026-11-26", 1, 500),
        // Before the 7 days.
        caps("2026-11-19", 1),
      ])
      .execute();
    const referrers = await breakdown("range=7d&dimension=referrer");
    expect(referrers.capped).toEqual([
      { day: "2026-11-22", values: 2000 },
      { day: "2026-11-26", values: 500 },
    ]);
    expect((await breakdown("range=7d&dimension=utm_source")).capped).toEqual([]);
  });

  it("downloads a table as CSV with formulas neutralised, and audits it", async () => {
    const response = await viewer.request(
      "GET",
      `${AUDIENCE_PATHS.export}?range=7d&table=referrer`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      'attachment; filename="audience-referrer-2026-11-21-2026-11-27.csv"',
    );
    expect(
      response.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n"),
    ).toEqual([
      "value,visitors,views,visits,inquiries,subscriptions,conversion_rate",
      "google.com,0,9,6,0,0,0",
      `"'=HYPERLINK(""x"")",0,1,1,0,0,0`,
    ]);
    const daily = await viewer.request("GET", `${AUDIENCE_PATHS.export}?range=today&table=daily`);
    expect(
      daily.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n"),
    ).toEqual(["day,visitors,views,visits", "2026-11-27,8,30,10"]);
    const hourly = await viewer.request("GET", `${AUDIENCE_PATHS.export}?range=7d&table=hourly`);
    const hours = hourly.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(hours).toHaveLength(25);
    expect(hours.slice(0, 1)).toEqual(["hour,visitors,views,visits"]);
    // Each hour of the day summed over the 7 days.
    expect(hours.slice(9, 11)).toEqual(["08,4,12,4", "09,8,23,9"]);
    const funnel = await viewer.request("GET", `${AUDIENCE_PATHS.export}?range=7d&table=funnel`);
    expect(
      funnel.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n"),
    ).toEqual([
      "step,visits,share_of_landing",
      "landing,15,1",
      "contact page,3,0.2",
      "inquiry,2,0.1333",
    ]);
    const audited = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "detail"])
      .where("action", "=", "audience-exported")
      .execute();
    expect(audited).toHaveLength(4);
    expect(JSON.parse(String(audited[0]?.detail))).toEqual({
      table: "referrer",
      from: "2026-11-21",
      to: "2026-11-27",
      rows: 2,
    });
  });

  it("refuses a range it cannot answer, saying why", async () => {
    const refusals: [string, string][] = [
      ["range=custom&from=2026-11-01", AUDIENCE_TEXTS.customNeedsDays],
      ["range=custom&from=2026-11-21&to=2026-11-20", AUDIENCE_TEXTS.fromAfterTo],
      ["range=custom&from=2020-01-01&to=2026-11-20", AUDIENCE_TEXTS.tooLong],
      ["range=custom&from=2026-02-30&to=2026-03-02", AUDIENCE_TEXTS.badDay],
    ];
    for (const [query, message] of refusals) {
      const response = await viewer.request("GET", `${AUDIENCE_PATHS.overview}?${query}`);
      expect({ query, status: response.statusCode }).toEqual({ query, status: 400 });
      expect(response.body).toContain(message);
    }
    const unknown = await viewer.request("GET", `${AUDIENCE_PATHS.breakdown}?dimension=total`);
    expect(unknown.statusCode).toBe(400);
  });

  it("answers a viewer, and no one without a session", async () => {
    const stranger = await anonymous(t.app);
    for (const path of [
      AUDIENCE_PATHS.overview,
      `${AUDIENCE_PATHS.breakdown}?dimension=page`,
      `${AUDIENCE_PATHS.export}?table=page`,
    ]) {
      const response = await stranger.request("GET", path);
      expect({ path, status: response.statusCode }).toEqual({ path, status: 401 });
      expect(response.json()).toEqual({ message: AUTH_TEXTS.signedOut });
    }
  });
});
