/**
 * Migration 011 renames what the code once called a campaign to an issue:
 * a database written before it keeps its issues, their copies in the outbox
 * and their audit entries, under the new names, on both engines.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { migrateToLatest, migrateUpTo } from "../../../src/server/platform/db/migrations.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../support/engines.ts";

const AT = "2026-03-01T09:00:00.000Z";

describe.each(ENGINES)("migration 011 on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  // The tables as they stood before the migration, which the typed schema no longer names.
  // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration has no type
  let before: Kysely<any>;
  let issueId: number;

  beforeAll(async () => {
    testDb = await engine.createEmpty();
    database = openTestDatabase(testDb);
    before = database.db;
    await migrateUpTo(before, database.engine, "010_case_study_outcomes");

    const stamps = { created_at: AT, updated_at: AT };
    const issue = await before
      .insertInto("campaigns")
      .values({
        slug: "q1",
        title: "Q1",
        summary: "S",
        body: "B",
        author: "a@firm.example",
        ...stamps,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    issueId = issue.id;
    const subscription = await before
      .insertInto("subscriptions")
      .values({ email: "r@example.org", subscribed_at: AT, subscribed_via: "form", ...stamps })
      .returning("id")
      .executeTakeFirstOrThrow();
    await before
      .insertInto("outbox")
      .values({
        kind: "newsletter",
        message: "{}",
        status: "pending",
        next_attempt_at: AT,
        campaign_id: issueId,
        subscription_id: subscription.id,
        ...stamps,
      })
      .execute();
    await before
      .insertInto("audit_log")
      .values([
        {
          at: AT,
          actor: "a@firm.example",
          action: "campaign-created",
          target: `campaign:${issueId}`,
        },
        {
          at: AT,
          actor: "a@firm.example",
          action: "campaign-test-sent",
          target: `campaign:${issueId}`,
        },
        { at: AT, actor: "a@firm.example", action: "inquiry-status", target: "inquiry:7" },
      ])
      .execute();

    await migrateToLatest(database.db, database.engine);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  it("keeps each issue in the issues table, and its copies pointing at it", async () => {
    const issue = await database.db
      .selectFrom("issues")
      .select(["slug", "status"])
      .where("id", "=", issueId)
      .executeTakeFirst();
    expect(issue).toEqual({ slug: "q1", status: "draft" });
    const copies = await database.db.selectFrom("outbox").select("issue_id").execute();
    expect(copies).toEqual([{ issue_id: issueId }]);
  });

  it("still refuses a second copy of an issue for one subscription", async () => {
    const copy = await database.db.selectFrom("outbox").selectAll().executeTakeFirstOrThrow();
    const { id: _id, ...again } = copy;
    await expect(database.db.insertInto("outbox").values(again).execute()).rejects.toThrow();
  });

  it("renames the issues' audit entries and leaves the others as they were", async () => {
    const entries = await database.db
      .selectFrom("audit_log")
      .select(["action", "target"])
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { action: "issue-created", target: `issue:${issueId}` },
      { action: "issue-test-sent", target: `issue:${issueId}` },
      { action: "inquiry-status", target: "inquiry:7" },
    ]);
  });
});
