/**
 * Queuing an issue's copies, statement by statement, on both engines: one
 * instance queues at a time, a queuing cut off resumes after its cursor, and
 * no subscription ever gets a second copy, whoever queues it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, openMigrated, type TestDatabase } from "../../../../test/support/engines.ts";
import { addSubscribers, scheduleIssue } from "../../../../test/support/newsletter.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { inOutboxTransaction } from "../../platform/outbox/queue.ts";
import { eraseSubscriber } from "../subscriptions/index.ts";
import { claimIssueToQueue, type QueuingIssue, QueuingStopped, queueBatch } from "./issue-sends.ts";

const SUBSCRIBERS = 350;
const BATCH = 100;
const LEASE_MS = 60_000;

describe.each(ENGINES)("queuing an issue on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  const messageId = () => `<${randomUUID()}@firm.example>`;

  beforeAll(async () => {
    testDb = await engine.create();
    database = await openMigrated(testDb);
  });
  // Each test starts from the same rows: queuing takes whichever issue is
  // due, and an erasure leaves one subscriber fewer, so none may inherit another's.
  beforeEach(async () => {
    for (const table of ["outbox", "issues", "subscriptions", "erased_subscribers"] as const) {
      await database.db.deleteFrom(table).execute();
    }
    await addSubscribers(database, "reader", SUBSCRIBERS);
    await addSubscribers(database, "left", 5, { unsubscribed: true });
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  const batch = (issue: QueuingIssue, worker: string, firstSlot = Date.now()) =>
    inOutboxTransaction(
      database.db,
      (trx) =>
        queueBatch(trx, {
          issue,
          worker,
          leaseMs: LEASE_MS,
          firstSlot,
          messageId,
          batchSize: BATCH,
        }),
      () => {},
    );

  const copies = (issueId: number) =>
    database.db
      .selectFrom("outbox")
      .select(["subscription_id", "next_attempt_at"])
      .where("issue_id", "=", issueId)
      .orderBy("id")
      .execute();

  /** Schedules an issue, claims it and queues its first batch of copies. */
  async function queueFirstBatch(slug: string) {
    const issue = await scheduleIssue(database, slug, 100);
    const claim = await claimIssueToQueue(database.db, "w", LEASE_MS);
    if (claim?.id !== issue.id) throw new Error(`${slug} was not the issue claimed`);
    await batch(claim, "w");
    return issue;
  }

  it("lets one of two instances take an issue that falls due", async () => {
    const issue = await scheduleIssue(database, "race", 100);
    const claims = await Promise.all([
      claimIssueToQueue(database.db, "a", LEASE_MS),
      claimIssueToQueue(database.db, "b", LEASE_MS),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)).toMatchObject({ id: issue.id, cursor: 0, started: true });
  });

  it("resumes a queuing cut off after its cursor, refuses the lost worker, and queues each subscription once", async () => {
    const issue = await scheduleIssue(database, "resume", 100);
    const first = await claimIssueToQueue(database.db, "crashed", LEASE_MS);
    if (!first) throw new Error("the due issue was not claimed");
    const one = await batch(first, "crashed");
    const two = await batch({ ...first, cursor: one.cursor }, "crashed");
    expect([one.inserted, two.inserted, two.done]).toEqual([BATCH, BATCH, false]);

    // The process died: its lease runs out, and another instance takes over.
    await database.db
      .updateTable("issues")
      .set({ locked_until: new Date(Date.now() - 1).toISOString() })
      .where("id", "=", issue.id)
      .execute();
    const taken = await claimIssueToQueue(database.db, "survivor", LEASE_MS);
    expect(taken).toMatchObject({ id: issue.id, cursor: two.cursor, started: false });
    if (!taken) return;

    // The first worker, had it lived on, can queue nothing more.
    await expect(batch({ ...first, cursor: two.cursor }, "crashed")).rejects.toBeInstanceOf(
      QueuingStopped,
    );

    let cursor = taken.cursor;
    for (;;) {
      const next = await batch({ ...taken, cursor }, "survivor");
      cursor = next.cursor;
      if (next.done) break;
    }
    const queued = await copies(issue.id);
    expect(queued).toHaveLength(SUBSCRIBERS);
    expect(new Set(queued.map((row) => row.subscription_id)).size).toBe(SUBSCRIBERS);
    const stored = await database.db
      .selectFrom("issues")
      .select(["status", "recipients", "queued_all_at", "locked_by"])
      .where("id", "=", issue.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: "sending", recipients: SUBSCRIBERS, locked_by: null });
    expect(stored.queued_all_at).not.toBeNull();
  });

  it("adds no second copy when a worker queues from a stale cursor", async () => {
    const issue = await scheduleIssue(database, "stale-cursor", 100);
    const claim = await claimIssueToQueue(database.db, "w", LEASE_MS);
    if (!claim) throw new Error("the due issue was not claimed");
    const first = await batch(claim, "w");
    expect(first.inserted).toBe(BATCH);
    const again = await batch({ ...claim, cursor: 0 }, "w");
    expect(again.inserted).toBe(0);
    expect(await copies(issue.id)).toHaveLength(BATCH);
  });

  it("deletes an erased subscriber's copies and no one else's", async () => {
    // Two issues queue copies to the same first subscribers.
    await queueFirstBatch("earlier");
    const latest = await queueFirstBatch("latest");
    const issue = await copies(latest.id);
    const [erased, kept] = issue.slice(0, 2).map((row) => row.subscription_id ?? 0);
    // Its copies of every issue go.
    const { count } = await database.db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("subscription_id", "=", erased ?? 0)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBeGreaterThanOrEqual(2);
    const erasure = await eraseSubscriber(database, erased ?? 0, "x".repeat(32));
    expect(erasure?.mailDeleted).toBe(Number(count));
    const left = (await copies(latest.id)).map((row) => row.subscription_id);
    expect(left).not.toContain(erased);
    expect(left).toContain(kept);
    expect(left).toHaveLength(issue.length - 1);
  });

  it("spaces the copies one interval apart at the issue's rate", async () => {
    const issue = await scheduleIssue(database, "paced", 20);
    const claim = await claimIssueToQueue(database.db, "w", LEASE_MS);
    if (!claim) throw new Error("the due issue was not claimed");
    const start = Date.parse("2030-01-01T00:00:00.000Z");
    const queued = await batch(claim, "w", start);
    const due = (await copies(issue.id)).map((row) => new Date(row.next_attempt_at).getTime());
    expect(due.slice(0, 3)).toEqual([start, start + 50, start + 100]);
    expect(queued.nextSlot).toBe(start + BATCH * 50);
  });
});
