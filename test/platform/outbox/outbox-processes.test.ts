import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { enqueueMail, inOutboxTransaction } from "../../../src/server/platform/outbox/queue.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { clientFor, type ServerProcess, startServer } from "../../support/server-process.ts";
import { startSmtp, type TestSmtp } from "../../support/smtp.ts";

const FAST = {
  OUTBOX_POLL_MS: "50",
  OUTBOX_RETRY_BASE_MS: "20",
  OUTBOX_RETRY_MAX_MS: "200",
  OUTBOX_MAX_ATTEMPTS: "1000",
  INQUIRY_TO: "inbox@firm.example",
  // A message the killed process was sending stays claimed until its lease ends.
  OUTBOX_LEASE_MS: "1500",
};

const messageIds = (smtp: TestSmtp) => smtp.received.map((mail) => mail.parsed.messageId);

describe.each(ENGINES)("outbox across server processes on $engine", (engine) => {
  let testDb: TestDatabase;
  let smtp: TestSmtp;
  let database: DatabaseHandle;
  /** The server processes a test starts: any still running when it ends (failed or timed out) are killed. */
  let starting: Promise<ServerProcess>[];
  const start = (env: Record<string, string>) => {
    const server = startServer(env);
    starting.push(server);
    return server;
  };
  // Each test has an outbox and a mail server of its own: no message, and no refusal, is left from another.
  beforeEach(async () => {
    starting = [];
    testDb = await engine.create();
    smtp = await startSmtp();
    database = await openMigrated(testDb);
  });
  afterEach(async () => {
    const servers = (await Promise.allSettled(starting)).flatMap((started) =>
      started.status === "fulfilled" ? [started.value] : [],
    );
    for (const { child } of servers) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    await Promise.all(servers.map((server) => server.exited));
    await database.db.destroy();
    await smtp.close();
    await testDb.drop();
  });

  const outbox = () =>
    database.db.selectFrom("outbox").select(["status", "attempts"]).orderBy("id").execute();

  // Each test starts two server processes: a minute, as
  // the other multi-process tests have, not the default 30 s (the second one polls for 30 s).
  it("delivers messages left pending by a killed process, each exactly once, after a restart", async () => {
    smtp.refuseNext(1_000_000);
    const env = { ...testDb.env, ...FAST, SMTP_URL: smtp.url };
    const first = await start(env);
    const client = await clientFor(first.origin);
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await client.post("/api/v1/send-comment", { ...VALID_INQUIRY, comments: `inquiry ${i}` }))
          .status,
      ).toBe(200);
    }
    // Every message has been tried (and refused) before the process dies.
    await expect
      .poll(async () => (await outbox()).filter((row) => row.attempts > 0).length)
      .toBe(3);
    first.child.kill("SIGKILL");
    await first.exited;
    expect(smtp.received).toHaveLength(0);

    smtp.refuseNext(0);
    const second = await start(env);
    // Once every row is marked sent, nothing is left that could be sent again.
    await expect
      .poll(async () => (await outbox()).every((row) => row.status === "sent"))
      .toBe(true);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(smtp.received).toHaveLength(3);
    expect(new Set(smtp.received.map((m) => m.parsed.text?.match(/inquiry \d/)?.[0]))).toEqual(
      new Set(["inquiry 0", "inquiry 1", "inquiry 2"]),
    );
  }, 60_000);

  it("two sender processes sharing one outbox deliver each message once", async () => {
    const COUNT = 40;
    const { db } = database;
    for (let i = 0; i < COUNT; i += 1) {
      await inOutboxTransaction(
        db,
        (trx) =>
          enqueueMail(trx, "inquiry-notification", {
            messageId: `<batch-${i}@firm.example>`,
            from: "site@firm.example",
            to: "inbox@firm.example",
            subject: `Batch ${i}`,
            text: `batch ${i}`,
            html: `<p>batch ${i}</p>`,
          }),
        () => {},
      );
    }

    // A full lease: one shorter than a delivery (as in the test above) lets the
    // other sender take a message mid-send by design (ADR 006), and a process's
    // first delivery can take that long on a busy machine.
    const env = { ...testDb.env, ...FAST, OUTBOX_LEASE_MS: "60000", SMTP_URL: smtp.url };
    const servers = await Promise.all([start(env), start(env)]);
    await expect
      .poll(async () => (await outbox()).every((row) => row.status === "sent"), {
        timeout: 30_000,
      })
      .toBe(true);
    for (const server of servers) server.child.kill("SIGTERM");
    await Promise.all(servers.map((server) => server.exited));

    expect(smtp.received).toHaveLength(COUNT);
    expect(new Set(messageIds(smtp)).size).toBe(COUNT);
    expect((await outbox()).map((row) => row.status)).toEqual(Array(COUNT).fill("sent"));
  }, 60_000);
});
