/**
 * The daily purge (ADR 048), on both engines with two instances on one
 * database and a clock of the test's: for each kind of data, a row just
 * inside its keeping stays and one just past it goes; every other row of
 * every table is left as it was; and of two instances looking on the same
 * day, one purges and the other finds the day taken.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const START = Date.parse("2026-11-27T03:00:00.000Z");
/** The next day's run: every row is aged from it. */
const RUN = START + DAY_MS;
const iso = (ms: number) => new Date(ms).toISOString();
/** A minute short of `days` before the run, and a minute past it. */
const inside = (days: number) => iso(RUN - days * DAY_MS + MINUTE_MS);
const past = (days: number) => iso(RUN - days * DAY_MS - MINUTE_MS);

const KEEP = {
  OUTBOX_SENT_RETENTION_DAYS: 30,
  SESSION_RETENTION_DAYS: 2,
  TOKEN_RETENTION_DAYS: 3,
  TURNED_AWAY_RETENTION_DAYS: 20,
  AUDIT_RETENTION_DAYS: 90,
  REPORT_RETENTION_DAYS: 60,
  SESSION_IDLE_MINUTES: 30,
};
const IDLE_MS = KEEP.SESSION_IDLE_MINUTES * MINUTE_MS;

describe.each(ENGINES)("the daily purge on $engine", (engine) => {
  let clock = START;
  let first: TestApp;
  let second: TestApp;
  const env = Object.fromEntries(Object.entries(KEEP).map(([name, days]) => [name, String(days)]));

  beforeAll(async () => {
    first = await startApp(engine, env, { withPages: false, now: () => clock });
    second = await startApp(engine, env, {
      withPages: false,
      now: () => clock,
      shared: first.testDb,
    });
    // A listening server looks once it listens; these answer injected
    // requests only, so the test looks for them on the day they start.
    expect(await first.app.dailyPurge.runToday()).toBe(true);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const db = () => first.database.db;

  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of await db().introspection.getTables()) {
      const { rows } = await sql<{
        count: number | string;
      }>`select count(*) as count from ${sql.table(table.name)}`.execute(db());
      counts[table.name] = Number(rows[0]?.count);
    }
    return counts;
  }

  async function seed() {
    const user = await db()
      .insertInto("users")
      .values({
        email: `purge-${engine.engine}@firm.example`,
        role: "editor",
        password_hash: null,
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        created_at: iso(START),
        updated_at: iso(START),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const session = (id: string, lastSeen: string, expires: string) => ({
      id,
      user_id: user.id,
      created_at: iso(START - 10 * DAY_MS),
      last_seen_at: lastSeen,
      expires_at: expires,
      ip: "192.0.2.7",
      user_agent: "Test browser",
    });
    const sessionDays = KEEP.SESSION_RETENTION_DAYS;
    await db()
      .insertInto("sessions")
      .values([
        session("live", iso(RUN - MINUTE_MS), iso(RUN + DAY_MS)),
        session("ended-inside", iso(RUN - MINUTE_MS), inside(sessionDays)),
        session(
          "idled-inside",
          iso(RUN - sessionDays * DAY_MS - IDLE_MS + MINUTE_MS),
          iso(RUN + DAY_MS),
        ),
        session("ended-past", iso(RUN - MINUTE_MS), past(sessionDays)),
        session(
          "idled-past",
          iso(RUN - sessionDays * DAY_MS - IDLE_MS - MINUTE_MS),
          iso(RUN + DAY_MS),
        ),
      ])
      .execute();

    const token = KEEP.TOKEN_RETENTION_DAYS;
    const link = (hash: string, expires: string, used: string | null) => ({
      token_hash: hash,
      user_id: user.id,
      purpose: "reset" as const,
      created_at: iso(START - 10 * DAY_MS),
      expires_at: expires,
      used_at: used,
    });
    await db()
      .insertInto("user_tokens")
      .values([
        link("unused", iso(RUN + DAY_MS), null),
        link("used-inside", iso(RUN + DAY_MS), inside(token)),
        link("expired-inside", inside(token), null),
        link("used-past", iso(RUN + DAY_MS), past(token)),
        link("expired-past", past(token), null),
      ])
      .execute();
    await db()
      .insertInto("recovery_codes")
      .values([
        { user_id: user.id, code_hash: "unused", used_at: null },
        { user_id: user.id, code_hash: "used-inside", used_at: inside(token) },
        { user_id: user.id, code_hash: "used-past", used_at: past(token) },
      ])
      .execute();

    const audit = KEEP.AUDIT_RETENTION_DAYS;
    await db()
      .insertInto("audit_log")
      .values([
        { at: inside(audit), user_id: null, actor: "purge-test", action: "inside" },
        { at: past(audit), user_id: null, actor: "purge-test", action: "past" },
      ])
      .execute();

    const report = (text: string, received: string) => ({
      email: "reader@example.com",
      kind: "soft" as const,
      status: "4.2.2",
      source: "mailbox",
      source_key: null,
      outbox_id: null,
      message_kind: null,
      issue_id: null,
      text,
      received_at: received,
    });
    await db()
      .insertInto("delivery_reports")
      .values([
        report("inside", inside(KEEP.REPORT_RETENTION_DAYS)),
        report("past", past(KEEP.REPORT_RETENTION_DAYS)),
      ])
      .execute();

    const post = (reason: string, received: string) => ({
      form: "subscription",
      reason,
      seconds: 1,
      via: "api",
      fields: JSON.stringify({ emailId: "someone@example.com" }),
      received_at: received,
    });
    await db()
      .insertInto("turned_away")
      .values([
        post("inside", inside(KEEP.TURNED_AWAY_RETENTION_DAYS)),
        post("past", past(KEEP.TURNED_AWAY_RETENTION_DAYS)),
      ])
      .execute();

    const sent = KEEP.OUTBOX_SENT_RETENTION_DAYS;
    const mail = (kind: string, status: "pending" | "sent" | "failed", sentAt: string | null) => ({
      kind,
      message: JSON.stringify({
        messageId: `<${kind}@firm.example>`,
        from: "firm@firm.example",
        to: { name: "Ada", address: `${kind}@example.com` },
        subject: `About ${kind}`,
        text: "The body",
        html: "<p>The body</p>",
        headers: { "List-Unsubscribe": "<https://firm.example/u/secret>" },
      }),
      status,
      next_attempt_at: iso(Date.parse("2100-01-01T00:00:00.000Z")),
      last_error: status === "failed" ? "550 no such user" : null,
      sent_at: sentAt,
      created_at: past(sent + 1),
      updated_at: past(sent + 1),
    });
    await db()
      .insertInto("outbox")
      .values([
        mail("sent-inside", "sent", inside(sent)),
        mail("sent-past", "sent", past(sent)),
        mail("failed-old", "failed", null),
        mail("waiting-old", "pending", null),
      ])
      .execute();
  }

  const outboxMessages = async () =>
    Object.fromEntries(
      (
        await db()
          .selectFrom("outbox")
          .select(["kind", "message", "body_removed_at"])
          .where("kind", "in", ["sent-inside", "sent-past", "failed-old", "waiting-old"])
          .execute()
      ).map((row) => [row.kind, row]),
    );

  const column = async (table: keyof Database, name: string) =>
    (
      await sql<{
        value: string;
      }>`select ${sql.ref(name)} as value from ${sql.table(table)}`.execute(db())
    ).rows
      .map((row) => row.value)
      .sort();

  it("removes what is past its keeping, on one instance a day, and nothing else", async () => {
    clock = RUN;
    await seed();
    const before = await rowCounts();
    const outboxBefore = await outboxMessages();

    const ran = await Promise.all([
      first.app.dailyPurge.runToday(),
      second.app.dailyPurge.runToday(),
    ]);
    expect(ran.sort()).toEqual([false, true]);

    expect(await column("sessions", "id")).toEqual(["ended-inside", "idled-inside", "live"]);
    expect(await column("user_tokens", "token_hash")).toEqual([
      "expired-inside",
      "unused",
      "used-inside",
    ]);
    expect(await column("recovery_codes", "code_hash")).toEqual(["unused", "used-inside"]);
    expect(
      (
        await db()
          .selectFrom("audit_log")
          .select("action")
          .where("actor", "=", "purge-test")
          .execute()
      ).map((row) => row.action),
    ).toEqual(["inside"]);
    expect(await column("delivery_reports", "text")).toEqual(["inside"]);
    expect(await column("turned_away", "reason")).toEqual(["inside"]);

    const outboxAfter = await outboxMessages();
    expect(outboxAfter["sent-inside"]).toEqual(outboxBefore["sent-inside"]);
    expect(outboxAfter["failed-old"]).toEqual(outboxBefore["failed-old"]);
    expect(outboxAfter["waiting-old"]).toEqual(outboxBefore["waiting-old"]);
    expect(JSON.parse(outboxAfter["sent-past"]?.message ?? "")).toEqual({
      messageId: "<sent-past@firm.example>",
      from: "firm@firm.example",
      to: { name: "Ada", address: "sent-past@example.com" },
    });
    expect(Date.parse(outboxAfter["sent-past"]?.body_removed_at ?? "")).toBe(RUN);

    const removed: Record<string, number> = {
      sessions: 2,
      user_tokens: 2,
      recovery_codes: 1,
      audit_log: 1,
      delivery_reports: 1,
      turned_away: 1,
    };
    const expected = Object.fromEntries(
      Object.entries(before).map(([table, count]) => [table, count - (removed[table] ?? 0)]),
    );
    expect(await rowCounts()).toEqual(expected);

    // Later that day neither instance purges again; the next day one does.
    clock = RUN + 20 * 60 * MINUTE_MS;
    expect(await first.app.dailyPurge.runToday()).toBe(false);
    expect(await second.app.dailyPurge.runToday()).toBe(false);
    clock = RUN + DAY_MS;
    expect(await second.app.dailyPurge.runToday()).toBe(true);
  });

  it("looks once a server listens, not before", async () => {
    clock = RUN + 2 * DAY_MS;
    const day = iso(clock).slice(0, 10);
    // On a database of its own: the day only moves forward, so once this
    // instance took a later day on the shared one, the test above could no
    // longer take its own, whichever runs first.
    const third = await startApp(engine, env, { withPages: false, now: () => clock });
    const purgeDay = async () =>
      (
        await third.database.db
          .selectFrom("site_meta")
          .select("value")
          .where("key", "=", "daily_purge_day")
          .executeTakeFirst()
      )?.value;
    try {
      expect(await purgeDay()).not.toBe(day);
      await third.app.listen({ port: 0, host: "127.0.0.1" });
      await expect.poll(purgeDay).toBe(day);
    } finally {
      await third.close();
    }
  });
});
