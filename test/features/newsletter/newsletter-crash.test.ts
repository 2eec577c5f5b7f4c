/**
 * A newsletter send survives `kill -9`: the restarted server finishes it with
 * no subscriber skipped and none sent twice beyond the outbox's window (a
 * copy the SMTP server accepted just before the process died, ADR 006); and
 * two server processes sending one issue send each copy once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";
import { addSubscribers, scheduleIssue } from "../../support/newsletter.ts";
import { startServer } from "../../support/server-process.ts";
import { type ReceivedMail, startSmtp, type TestSmtp } from "../../support/smtp.ts";

/** Long enough for the servers to start and for every poll below to run to its own limit. */
const PROCESS_TEST_MS = 90_000;

const SUBSCRIBERS = 300;

const ENV = {
  OUTBOX_POLL_MS: "50",
  OUTBOX_RETRY_BASE_MS: "20",
  OUTBOX_RETRY_MAX_MS: "200",
  // A copy the killed process held is taken again once its lease ends.
  OUTBOX_LEASE_MS: "2000",
};

const recipientOf = (mail: ReceivedMail) => mail.recipients[0] ?? "";

describe.each(ENGINES)("a newsletter send across server processes on $engine", (engine) => {
  let testDb: TestDatabase;
  let smtp: TestSmtp;
  let database: DatabaseHandle;
  let subscribers: string[];

  beforeAll(async () => {
    testDb = await engine.create();
    smtp = await startSmtp();
    database = await openMigrated(testDb);
    subscribers = await addSubscribers(database, "reader", SUBSCRIBERS);
  });
  afterAll(async () => {
    await database.db.destroy();
    await smtp.close();
    await testDb.drop();
  });

  const copiesOf = (subject: string) =>
    smtp.received.filter((mail) => mail.parsed.subject === subject);
  const statusOf = async (id: number) =>
    (
      await database.db
        .selectFrom("issues")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).status;

  it(
    "finishes after kill -9 and a restart, skipping no one and repeating at most the copy in flight",
    async () => {
      const env = { ...testDb.env, ...ENV, SMTP_URL: smtp.url };
      const issue = await scheduleIssue(database, "crash", 100);
      const first = await startServer(env);
      await expect
        .poll(() => copiesOf(issue.subject).length, { timeout: 20_000 })
        .toBeGreaterThan(80);
      first.child.kill("SIGKILL");
      await first.exited;
      const beforeCrash = copiesOf(issue.subject).length;
      expect(beforeCrash).toBeLessThan(SUBSCRIBERS);

      const second = await startServer(env);
      await expect.poll(() => statusOf(issue.id), { timeout: 30_000 }).toBe("sent");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);

      const copies = copiesOf(issue.subject);
      const recipients = copies.map(recipientOf);
      expect(new Set(recipients)).toEqual(new Set(subscribers));
      const repeated = copies.length - new Set(recipients).size;
      expect(repeated).toBeLessThanOrEqual(1);
      // A repeat, if any, is the very copy the process was sending: same Message-ID.
      expect(new Set(copies.map((mail) => mail.parsed.messageId)).size).toBe(SUBSCRIBERS);
      // Two server starts and the polls' own limits (20 s, then 30 s): the test
      // may take as long as they allow on a busy machine.
    },
    PROCESS_TEST_MS,
  );

  it(
    "sends each copy once when two server processes share the send",
    async () => {
      const env = { ...testDb.env, ...ENV, OUTBOX_LEASE_MS: "60000", SMTP_URL: smtp.url };
      const issue = await scheduleIssue(database, "shared", 200);
      const servers = await Promise.all([startServer(env), startServer(env)]);
      await expect.poll(() => statusOf(issue.id), { timeout: 30_000 }).toBe("sent");
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.exited));

      const recipients = copiesOf(issue.subject).map(recipientOf);
      expect(recipients).toHaveLength(SUBSCRIBERS);
      expect(new Set(recipients)).toEqual(new Set(subscribers));
    },
    PROCESS_TEST_MS,
  );
});
