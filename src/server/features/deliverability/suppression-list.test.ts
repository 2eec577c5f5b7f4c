/**
 * The suppression list as reports arrive, on both engines: a hard bounce or
 * a complaint suppresses at once, soft bounces only past the limit within
 * the days (measured with the clock the call is given), a report that
 * arrives twice counts once, and simultaneous reports leave one row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigrated, SQLITE_ONLY, type TestDatabase } from "../../../../test/support/engines.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import {
  isSuppressed,
  liftSuppression,
  type NewReport,
  purgeReports,
  recordReport,
} from "./index.ts";
import { purgeSetAside, setAside } from "./set-aside.ts";

const POLICY = { limit: 3, days: 15 };
const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date("2026-11-01T09:00:00.000Z");

function report(
  email: string,
  kind: NewReport["kind"],
  sourceKey: string | null = null,
): NewReport {
  return {
    email,
    kind,
    status: kind === "complaint" ? null : kind === "hard" ? "5.1.1" : "4.2.2",
    source: "mailbox",
    sourceKey,
    outboxId: null,
    messageKind: null,
    issueId: null,
    text: `${kind} report for ${email}`,
  };
}

describe.each(SQLITE_ONLY)("the suppression list on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  const suppression = (email: string) =>
    database.db
      .selectFrom("suppressions")
      .select(["reason", "report_id"])
      .where("email", "=", email)
      .execute();

  it("suppresses an address at its first hard bounce, and a complaint's at once", async () => {
    const hard = await recordReport(database.db, report("Gone@Example.com", "hard"), POLICY);
    expect(hard).toEqual({ recorded: true, suppressed: true });
    expect(await suppression("gone@example.com")).toEqual([
      { reason: "hard-bounce", report_id: expect.any(Number) },
    ]);
    await recordReport(database.db, report("annoyed@example.com", "complaint"), POLICY);
    expect(await suppression("annoyed@example.com")).toMatchObject([{ reason: "complaint" }]);
    expect(await isSuppressed(database.db, "ANNOYED@example.com")).toBe(true);
  });

  it("suppresses on soft bounces only when the limit arrives within the days", async () => {
    const email = "full-mailbox@example.com";
    const at = (days: number) => new Date(START.getTime() + days * DAY_MS);
    // Two, then a third 16 days after the first: only two fall within 15 days.
    await recordReport(database.db, report(email, "soft"), POLICY, at(0));
    await recordReport(database.db, report(email, "soft"), POLICY, at(1));
    expect(await recordReport(database.db, report(email, "soft"), POLICY, at(16))).toEqual({
      recorded: true,
      suppressed: false,
    });
    // The fourth makes three within 15 days (days 1, 16, 16).
    expect(await recordReport(database.db, report(email, "soft"), POLICY, at(16))).toEqual({
      recorded: true,
      suppressed: true,
    });
    expect(await suppression(email)).toMatchObject([{ reason: "soft-bounces" }]);
  });

  it("counts a report that arrives twice once", async () => {
    const email = "twice@example.com";
    const first = await recordReport(database.db, report(email, "soft", "mailbox:<r1@mx>"), POLICY);
    const again = await recordReport(database.db, report(email, "soft", "mailbox:<r1@mx>"), POLICY);
    expect(first.recorded).toBe(true);
    expect(again).toEqual({ recorded: false, suppressed: false });
    const rows = await database.db
      .selectFrom("delivery_reports")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("50 simultaneous hard bounces of one address leave one suppression", async () => {
    const email = "crowd@example.com";
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        recordReport(database.db, report(email, "hard", `webhook:test:${n}`), POLICY),
      ),
    );
    expect(results.every((result) => result.recorded && result.suppressed)).toBe(true);
    expect(await suppression(email)).toHaveLength(1);
  });

  it("purges reports past their retention, but keeps the one a suppression rests on", async () => {
    const at = (days: number) => new Date(START.getTime() + days * DAY_MS);
    await recordReport(database.db, report("old-soft@example.com", "soft"), POLICY, at(-400));
    await recordReport(database.db, report("old-hard@example.com", "hard"), POLICY, at(-400));
    await recordReport(database.db, report("recent@example.com", "soft"), POLICY, at(-10));
    const emails = async () =>
      (
        await database.db
          .selectFrom("delivery_reports")
          .select("email")
          .where("email", "in", [
            "old-soft@example.com",
            "old-hard@example.com",
            "recent@example.com",
          ])
          .orderBy("email")
          .execute()
      ).map((row) => row.email);

    expect(await purgeReports(database.db, 365, START)).toBeGreaterThanOrEqual(1);
    expect(await emails()).toEqual(["old-hard@example.com", "recent@example.com"]);
    expect(await isSuppressed(database.db, "old-hard@example.com")).toBe(true);
  });

  it("purges what the bounce mailbox set aside past the reports' retention", async () => {
    const at = (days: number) => new Date(START.getTime() + days * DAY_MS);
    const kept = (sourceKey: string, days: number) =>
      setAside(
        database.db,
        {
          sourceKey,
          state: "unreadable",
          email: null,
          kind: null,
          status: null,
          why: "Reading it failed; the server's log says why.",
          text: "",
        },
        at(days),
      );
    await kept("mailbox:purge:old", -400);
    await kept("mailbox:purge:recent", -10);
    expect(await purgeSetAside(database.db, 365, START)).toBe(1);
    const left = await database.db
      .selectFrom("set_aside_mail")
      .select("source_key")
      .where("source_key", "like", "mailbox:purge:%")
      .execute();
    expect(left).toEqual([{ source_key: "mailbox:purge:recent" }]);
  });

  it("lifts a suppression once, and says when there was none", async () => {
    const email = "forgiven@example.com";
    await recordReport(database.db, report(email, "hard"), POLICY);
    expect(await liftSuppression(database.db, email)).toBe(true);
    expect(await isSuppressed(database.db, email)).toBe(false);
    expect(await liftSuppression(database.db, email)).toBe(false);
  });
});
