import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { retryDelay } from "../../../src/server/platform/outbox/sender.ts";
import { openSession, post, startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { mailTo } from "../../support/mail-env.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

describe("retryDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    const policy = { retryBaseMs: 1000, retryMaxMs: 5000 };
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, policy))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});

describe.each(ENGINES)("the outbox on $engine", (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const outboxRows = () =>
    t.database.db
      .selectFrom("outbox")
      .select(["id", "status", "attempts", "last_error"])
      .orderBy("id")
      .execute();

  it("delivers once after the SMTP server refuses three times, then accepts", async () => {
    smtp = await startSmtp();
    smtp.refuseNext(3);
    t = await startApp(engine, mailTo(smtp.url));
    await post(t.app, await openSession(t.app), "/api/v1/send-comment", VALID_INQUIRY);
    await expect.poll(async () => (await outboxRows())[0]?.status).toBe("sent");
    expect(smtp.received).toHaveLength(1);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "sent", attempts: 4, last_error: null });
  });

  it("gives up after the maximum attempts and keeps the last error", async () => {
    smtp = await startSmtp();
    smtp.refuseNext(1000);
    t = await startApp(engine, mailTo(smtp.url, { OUTBOX_MAX_ATTEMPTS: "3" }));
    await post(t.app, await openSession(t.app), "/api/v1/send-comment", VALID_INQUIRY);
    await expect
      .poll(async () => (await outboxRows())[0]?.status, { timeout: 10_000 })
      .toBe("failed");
    const [row] = await outboxRows();
    expect(row?.attempts).toBe(3);
    expect(row?.last_error).toMatch(/Mailbox busy, try again later/);
    expect(smtp.received).toHaveLength(0);
  });
});

describe("without SMTP", () => {
  it("writes each message as an .eml file in the mailbox folder", async () => {
    const [sqlite] = ENGINES;
    if (!sqlite) throw new Error("SQLite engine missing");
    const t = await startApp(sqlite, { OUTBOX_POLL_MS: "50" });
    const dir = t.config.MAILBOX_DIR;
    await post(t.app, await openSession(t.app), "/api/v1/send-comment", VALID_INQUIRY);
    await expect.poll(() => readdirSync(dir).filter((f) => f.endsWith(".eml")).length).toBe(1);
    const [file] = readdirSync(dir);
    const eml = readFileSync(join(dir, String(file)), "utf8");
    expect(eml).toMatch(/^Subject: New inquiry: Machine Learning from Grace Hopper/m);
    // The line is logged once the file is written: the file can be seen a moment before it.
    await expect
      .poll(() =>
        t.logs.some(
          (line) => line.includes("mail written to the local mailbox folder") && line.includes(dir),
        ),
      )
      .toBe(true);
    await t.close();
  });
});
