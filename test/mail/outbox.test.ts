import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboxSender, retryDelay } from "../../src/server/mail/outbox-sender.ts";
import { mailboxMailer } from "../../src/server/mail/transport.ts";
import { openSession, post, type Session, startApp, type TestApp } from "../support/app.ts";
import { ENGINES } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { FAST_POLICY, startSender } from "../support/sender.ts";
import { startSmtp, type TestSmtp } from "../support/smtp.ts";

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
  let session: Session;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp(engine);
    session = await openSession(t.app);
  });
  afterAll(async () => {
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
    smtp.refuseNext(3);
    const sender = startSender(t, smtp.url);
    await post(t.app, session, "/api/v1/send-comment", VALID_INQUIRY);
    await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sender.stop();
    expect(smtp.received).toHaveLength(1);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "sent", attempts: 4, last_error: null });
  });

  it("gives up after the maximum attempts and keeps the last error", async () => {
    await t.database.db.deleteFrom("outbox").execute();
    smtp.refuseNext(1000);
    const sender = startSender(t, smtp.url, { maxAttempts: 3 });
    await post(t.app, session, "/api/v1/send-comment", VALID_INQUIRY);
    await expect
      .poll(async () => (await outboxRows())[0]?.status, { timeout: 10_000 })
      .toBe("failed");
    await sender.stop();
    smtp.refuseNext(0);
    const [row] = await outboxRows();
    expect(row?.attempts).toBe(3);
    expect(row?.last_error).toMatch(/Mailbox busy, try again later/);
  });
});

describe("without SMTP", () => {
  it("writes each message as an .eml file in the mailbox folder", async () => {
    const [sqlite] = ENGINES;
    if (!sqlite) throw new Error("SQLite engine missing");
    const t = await startApp(sqlite);
    const session = await openSession(t.app);
    const dir = mkdtempSync(join(tmpdir(), "mailbox-"));
    const sender = new OutboxSender({
      db: t.database.db,
      engine: t.database.engine,
      mailer: mailboxMailer(dir, t.app.log),
      log: t.app.log,
      policy: FAST_POLICY,
    });
    t.app.mailQueue.onQueued = () => sender.wake();
    sender.start();
    await post(t.app, session, "/api/v1/send-comment", VALID_INQUIRY);
    await expect.poll(() => readdirSync(dir).filter((f) => f.endsWith(".eml")).length).toBe(1);
    await sender.stop();
    const [file] = readdirSync(dir);
    const eml = readFileSync(join(dir, String(file)), "utf8");
    expect(eml).toMatch(/^Subject: New inquiry: Machine Learning from Grace Hopper/m);
    expect(
      t.logs.some(
        (line) => line.includes("mail written to the local mailbox folder") && line.includes(dir),
      ),
    ).toBe(true);
    await t.close();
  });
});
