/**
 * Transactional mail goes ahead of bulk mail, the claim is served by an index
 * on both engines (no sort of the due rows), and batch claims stay exact when
 * several senders share one outbox.
 */
import type { FastifyBaseLogger } from "fastify";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import type { MailPriority } from "../../../src/server/platform/db/schema.ts";
import type { MailKind } from "../../../src/server/platform/outbox/kinds.ts";
import type { MailMessage } from "../../../src/server/platform/outbox/message.ts";
import {
  claimQuery,
  enqueueMail,
  enqueueMails,
  inOutboxTransaction,
} from "../../../src/server/platform/outbox/queue.ts";
import { OutboxSender, type RetryPolicy } from "../../../src/server/platform/outbox/sender.ts";
import type { Mailer } from "../../../src/server/platform/outbox/transport.ts";
import { openMigrated, SQLITE_ONLY, type TestDatabase } from "../../support/engines.ts";

const POLICY: RetryPolicy = {
  pollMs: 20,
  maxAttempts: 3,
  retryBaseMs: 10,
  retryMaxMs: 100,
  leaseMs: 60_000,
};

const noOp = () => {};
const silentLog = {
  level: "silent",
  fatal: noOp,
  error: noOp,
  warn: noOp,
  info: noOp,
  debug: noOp,
  trace: noOp,
  silent: noOp,
  child: () => silentLog,
} as unknown as FastifyBaseLogger;

function message(subject: string): MailMessage {
  return {
    messageId: `<${subject.replace(/\W+/g, "-")}@test.example>`,
    from: "site@firm.example",
    to: "someone@example.com",
    subject,
    text: subject,
    html: `<p>${subject}</p>`,
  };
}

/**
 * Records the subjects it is given, in order. Each send first waits for
 * `before(n)` (n counts sends from 0), so a test decides when a delivery ends.
 */
function recordingMailer(
  before: (n: number) => Promise<void> = () => Promise.resolve(),
): Mailer & { subjects: string[] } {
  const subjects: string[] = [];
  let sends = 0;
  return {
    subjects,
    description: "recording mailer",
    async send(mail) {
      await before(sends++);
      subjects.push(mail.subject);
    },
    close() {},
  };
}

describe.each(SQLITE_ONLY)("outbox priorities on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  const senders: OutboxSender[] = [];

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  beforeEach(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.stop()));
    await database.db.deleteFrom("outbox").execute();
  });
  afterAll(async () => {
    await Promise.all(senders.map((sender) => sender.stop()));
    await database.db.destroy();
    await testDb.drop();
  });

  function startSender(mailer: Mailer, policy: Partial<RetryPolicy> = {}): OutboxSender {
    const sender = new OutboxSender({
      db: database.db,
      engine: database.engine,
      mailer,
      log: silentLog,
      policy: { ...POLICY, ...policy },
      // These tests queue complete messages only; no newsletter copy reaches it.
      composeNewsletter: () => Promise.reject(new Error("no newsletter copies in these tests")),
    });
    senders.push(sender);
    sender.start();
    return sender;
  }

  const queue = (kind: MailKind, subjects: string[], priority?: MailPriority) =>
    inOutboxTransaction(
      database.db,
      (trx) => enqueueMails(trx, kind, subjects.map(message), priority ? { priority } : {}),
      () => {},
    );

  const rows = () =>
    database.db
      .selectFrom("outbox")
      .select(["kind", "priority", "status", "attempts", "locked_until"])
      .orderBy("id")
      .execute();

  const bulkSubjects = (count: number) =>
    Array.from({ length: count }, (_, i) => `newsletter ${i}`);

  it("sends a transactional message queued after 1,000 bulk ones first", async () => {
    await queue("newsletter", bulkSubjects(1000), "bulk");
    await inOutboxTransaction(
      database.db,
      (trx) => enqueueMail(trx, "inquiry-notification", message("New inquiry")),
      () => {},
    );
    const mailer = recordingMailer();
    const sender = startSender(mailer);
    await expect.poll(() => mailer.subjects.length).toBeGreaterThan(0);
    await sender.stop();
    expect(mailer.subjects[0]).toBe("New inquiry");
  });

  it("queues every message of a bulk call, as bulk, and transactional by default", async () => {
    await queue("newsletter", bulkSubjects(1200), "bulk");
    await queue("welcome", ["Welcome"]);
    const all = await rows();
    expect(all).toHaveLength(1201);
    expect(all.filter((row) => row.priority === "bulk")).toHaveLength(1200);
    expect(all.at(-1)).toMatchObject({ kind: "welcome", priority: "transactional" });
  });

  /** The claim statement's plan, as the engine would run it, one line per step. */
  async function claimPlan(priority: MailPriority): Promise<string> {
    const query = claimQuery(database.db, database.engine, {
      priority,
      worker: "planner",
      leaseMs: 60_000,
      now: new Date(),
    });
    const { sql: text, parameters } = query.compile();
    const explain = database.engine === "sqlite" ? "explain query plan" : "explain";
    const { rows: plan } = await database.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${explain} ${text}`, [...parameters]),
    );
    return plan
      .map((row) => String(database.engine === "sqlite" ? row.detail : row["QUERY PLAN"]))
      .join("\n");
  }

  it.each(["transactional", "bulk"] as const)(
    "claims %s mail through an index, without sorting the due rows",
    async (priority) => {
      await queue("newsletter", bulkSubjects(2000), "bulk");
      await queue("welcome", ["Welcome 1", "Welcome 2"]);
      // PostgreSQL plans from statistics; autovacuum would gather them in production.
      if (database.engine === "postgres") await sql`analyze outbox`.execute(database.db);
      const plan = await claimPlan(priority);
      if (database.engine === "sqlite") {
        expect(plan).toMatch(
          /SEARCH outbox USING INDEX outbox_claim \(status=\? AND priority=\? AND next_attempt_at<\?\)/,
        );
        expect(plan).not.toMatch(/TEMP B-TREE|SCAN outbox/);
      } else {
        // The index feeds the limit directly, locked row by row; the only sort
        // PostgreSQL may add is of the (at most ten) claimed ids, for the join.
        expect(plan).toMatch(
          /-> {2}Limit .*\n\s*-> {2}LockRows .*\n\s*-> {2}Index Scan using outbox_claim on outbox .*\n\s*Index Cond: \(\(status = 'pending'::text\) AND \(priority = '\w+'::text\) AND \(next_attempt_at <= /,
        );
        expect(plan).not.toMatch(/Seq Scan|Sort Key: (?!"ANY_subquery"\.id$)/m);
      }
    },
  );

  it("two senders claiming batches deliver each message once", async () => {
    const COUNT = 300;
    await queue("newsletter", bulkSubjects(COUNT), "bulk");
    // Each delivery yields to the event loop, so the two senders' claims interleave.
    const yieldFirst = () => new Promise<void>((resolve) => setImmediate(resolve));
    const mailers = [recordingMailer(yieldFirst), recordingMailer(yieldFirst)];
    for (const mailer of mailers) startSender(mailer);
    await expect
      .poll(async () => (await rows()).every((row) => row.status === "sent"), { timeout: 8000 })
      .toBe(true);
    const sent = mailers.flatMap((mailer) => mailer.subjects);
    expect(sent).toHaveLength(COUNT);
    expect(new Set(sent).size).toBe(COUNT);
    expect((await rows()).every((row) => row.attempts === 1)).toBe(true);
  });

  it("gives back the rest of a batch its lease can no longer cover, uncounted", async () => {
    // A lease shorter than the longest delivery covers only the first message of each batch.
    await queue("newsletter", bulkSubjects(25), "bulk");
    const mailer = recordingMailer();
    startSender(mailer, { leaseMs: 1000 });
    await expect.poll(async () => (await rows()).every((row) => row.status === "sent")).toBe(true);
    expect(mailer.subjects).toEqual(bulkSubjects(25));
    expect((await rows()).map((row) => row.attempts)).toEqual(Array(25).fill(1));
  });

  it("gives back the unsent rest of its batch when stopped", async () => {
    await queue("newsletter", bulkSubjects(10), "bulk");
    // The second delivery is still under way when the sender is told to stop.
    let secondStarted = () => {};
    const secondUnderWay = new Promise<void>((resolve) => {
      secondStarted = resolve;
    });
    let finishSecond = () => {};
    const secondFinished = new Promise<void>((resolve) => {
      finishSecond = resolve;
    });
    const mailer = recordingMailer((n) => {
      if (n !== 1) return Promise.resolve();
      secondStarted();
      return secondFinished;
    });
    const sender = startSender(mailer);
    await secondUnderWay;
    const stopped = sender.stop();
    finishSecond();
    await stopped;
    expect(mailer.subjects).toEqual(bulkSubjects(2));
    const left = (await rows()).filter((row) => row.status === "pending");
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((row) => row.attempts === 0 && row.locked_until === null)).toBe(true);
  });
});
