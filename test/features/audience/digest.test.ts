/**
 * The owners' weekly digest, on both engines: sent once a week across two
 * instances sharing a database, from Monday 07:00 UTC; not before, and not
 * at all while AUDIENCE_DIGEST is off; its contents are last week's figures
 * beside the week before's, and it goes to every owner who can sign in.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  dueWeek,
  mondayOf,
  sendWeeklyDigest,
} from "../../../src/server/features/audience/index.ts";
import type { MailMessage } from "../../../src/server/platform/outbox/message.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { writeDays } from "../../support/audience-figures.ts";
import { createAccount } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";

/** Monday 30 November 2026, 07:30 UTC: last week is 23 to 29 November. */
const MONDAY = Date.parse("2026-11-30T07:30:00.000Z");

const databaseEnv = (t: TestApp): Record<string, string> =>
  t.config.DATABASE_URL
    ? { DATABASE_URL: t.config.DATABASE_URL }
    : { SQLITE_FILE: t.config.SQLITE_FILE };

async function digests(t: TestApp) {
  const rows = await t.database.db
    .selectFrom("outbox")
    .select("message")
    .where("kind", "=", "audience-digest")
    .orderBy("id")
    .execute();
  return rows.map((row) => JSON.parse(row.message) as MailMessage);
}

async function seed(t: TestApp) {
  await createAccount(t.database, "owner", "lena@firm.example");
  await createAccount(t.database, "owner", "omar@firm.example");
  await createAccount(t.database, "editor", "eddie@firm.example");
  await writeDays(t.database, [
    // Two inquiries last week, one the week before; a subscription last week.
    {
      day: "2026-11-23",
      dimension: "total",
      views: 300,
      visits: 120,
      visitors: 100,
      conversions: 2,
      inquiries: 2,
    },
    {
      day: "2026-11-29",
      dimension: "total",
      views: 100,
      visits: 30,
      visitors: 25,
      conversions: 1,
      subscriptions: 1,
    },
    {
      day: "2026-11-20",
      dimension: "total",
      views: 200,
      visits: 100,
      visitors: 100,
      conversions: 1,
      inquiries: 1,
    },
    { day: "2026-11-30", dimension: "total", views: 5000, visits: 4000, visitors: 3000 },
    { day: "2026-11-23", dimension: "page", value: "/", views: 150, visits: 90 },
    { day: "2026-11-24", dimension: "page", value: "/weserve", views: 80, visits: 40 },
    { day: "2026-11-24", dimension: "page", value: "/<b>odd</b>", views: 1, visits: 1 },
    { day: "2026-11-23", dimension: "channel", value: "search", visits: 100 },
    { day: "2026-11-23", dimension: "channel", value: "direct", visits: 50 },
    { day: "2026-11-23", dimension: "referrer", value: "", visits: 50 },
    { day: "2026-11-23", dimension: "referrer", value: "google.com", visits: 90 },
  ]);
}

describe("the digest's week", () => {
  it("is due from Monday 07:00 UTC, for the week that ended the day before", () => {
    expect(mondayOf(Date.parse("2026-11-29T23:59:59.000Z"))).toBe("2026-11-23");
    expect(mondayOf(MONDAY)).toBe("2026-11-30");
    expect(mondayOf(Date.parse("2026-12-05T12:00:00.000Z"))).toBe("2026-11-30");
    expect(dueWeek(Date.parse("2026-11-30T06:59:59.999Z"))).toBeNull();
    expect(dueWeek(Date.parse("2026-11-30T07:00:00.000Z"))).toBe("2026-11-30");
    expect(dueWeek(Date.parse("2026-12-02T15:00:00.000Z"))).toBe("2026-11-30");
  });
});

describe.each(ENGINES)("the weekly audience digest on $engine", (engine) => {
  /**
   * Holds the database the instances share; its digest is off. Each test has
   * its own, seeded afresh, so it finds no digest another test queued or claimed.
   */
  let keeper: TestApp;
  beforeEach(async () => {
    keeper = await startApp(engine, {}, { now: () => MONDAY });
    await seed(keeper);
  });
  afterEach(() => keeper?.close());

  /** Another instance on the keeper's database. */
  const instance = (digest: boolean, at: number) =>
    startApp(
      engine,
      { AUDIENCE_DIGEST: String(digest), ...databaseEnv(keeper) },
      { now: () => at, shared: keeper.testDb },
    );

  it("is not sent while AUDIENCE_DIGEST is off, nor before Monday 07:00", async () => {
    // Closing waits for a round in progress, so whatever either would have sent is queued by then.
    await (await instance(false, MONDAY)).close();
    await (await instance(true, MONDAY - 3_600_000)).close();
    expect(await digests(keeper)).toEqual([]);
    expect(await keeper.database.db.selectFrom("audience_digests").selectAll().execute()).toEqual(
      [],
    );
  });

  it("is sent once across two instances, to every owner, with last week beside the week before", async () => {
    const first = await instance(true, MONDAY);
    const second = await instance(true, MONDAY);
    try {
      const said = (t: TestApp, message: string) => t.logs.some((line) => line.includes(message));
      await vi.waitFor(
        () => {
          expect(said(first, '"msg":"audience digest queued"')).toBe(true);
          expect(said(second, '"msg":"audience digest sent by another instance"')).toBe(true);
        },
        { timeout: 15_000, interval: 50 },
      );
      const claimed = await keeper.database.db.selectFrom("audience_digests").selectAll().execute();
      expect(claimed).toEqual([expect.objectContaining({ week: "2026-11-30", recipients: 2 })]);

      const mails = await digests(keeper);
      expect(mails.map((mail) => mail.to).sort()).toEqual([
        "lena@firm.example",
        "omar@firm.example",
      ]);
      const [mail] = mails;
      expect(mail?.subject).toBe("The website last week: 125 visitors, 2 inquiries");
      const text = mail?.text ?? "";
      expect(text).toContain("Week of 23 November – 29 November 2026");
      expect(text).toContain(
        [
          "Figure: Last week, Week before, Change",
          "Visitors: 125, 100, +25%",
          "Page views: 400, 200, +100%",
          "Visits: 150, 100, +50%",
          "Inquiries: 2, 1, +100%",
          "New subscriptions: 1, 0, new",
        ].join("\n"),
      );
      expect(text).toContain(
        "Most visited pages\n\nPage: Visits\n/: 90\n/weserve: 40\n/<b>odd</b>: 1\n",
      );
      expect(text).toContain("Channels\n\nChannel: Visits\nSearch: 100\nDirect: 50\n");
      expect(text).toContain("Top referrers\n\nReferrer: Visits\ngoogle.com: 90\n");
      expect(text).toContain(
        "http://localhost:3000/admin/audience?range=custom&from=2026-11-23&to=2026-11-29",
      );
      const html = String(mail?.html);
      expect(html).toContain("&lt;b&gt;odd&lt;/b&gt;");
      expect(html).not.toContain("<b>odd</b>");

      // Both at the very same moment, for the next week: one queues it. Not on
      // SQLite here: two instances are two processes there, and in one
      // process the second's wait for the write lock would stop the event
      // loop the first needs to finish its transaction.
      if (engine.engine === "sqlite") return;
      const nextMonday = MONDAY + 7 * 86_400_000;
      const options = (t: TestApp) => ({
        config: t.config,
        withOutbox: t.app.withOutbox,
        now: () => nextMonday,
      });
      const outcomes = await Promise.all([
        sendWeeklyDigest(options(first), "2026-12-07"),
        sendWeeklyDigest(options(second), "2026-12-07"),
      ]);
      expect(outcomes.map(String).sort()).toEqual(["2", "elsewhere"]);
      expect(await digests(keeper)).toHaveLength(4);
    } finally {
      await second.close();
      await first.close();
    }
  }, 60_000);
});
