/**
 * inTransaction joins the caller's transaction, and afterCommit waits for
 * the outermost commit: on both engines, a nested write rolls back with its
 * caller, and work after the commit runs once, only when it committed.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import { afterCommit, inTransaction } from "../../../src/server/platform/db/transaction.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";

describe.each(ENGINES)("inTransaction on $engine", (engine) => {
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

  const setMeta = (db: DatabaseHandle["db"], key: string) =>
    db
      .insertInto("site_meta")
      .values({ key, value: "x", created_at: "2026-01-01", updated_at: "2026-01-01" })
      .execute();
  const hasMeta = async (key: string) =>
    (await database.db.selectFrom("site_meta").select("key").where("key", "=", key).execute())
      .length === 1;

  it("runs a nested write in the caller's transaction, and its after-commit work after the outer commit", async () => {
    const events: string[] = [];
    await inTransaction(database.db, async (outer) => {
      await inTransaction(outer, async (inner) => {
        expect(inner).toBe(outer);
        await setMeta(inner, "nested-kept");
        afterCommit(inner, () => events.push("after commit"));
      });
      events.push("outer work done");
    });
    expect(events).toEqual(["outer work done", "after commit"]);
    expect(await hasMeta("nested-kept")).toBe(true);
  });

  it("rolls a nested write back with its caller, and never runs its after-commit work", async () => {
    const events: string[] = [];
    const failure = inTransaction(database.db, async (outer) => {
      await inTransaction(outer, async (inner) => {
        await setMeta(inner, "nested-dropped");
        afterCommit(inner, () => events.push("after commit"));
      });
      await sql`select * from no_such_table`.execute(outer);
    });
    await expect(failure).rejects.toThrow();
    expect(events).toEqual([]);
    expect(await hasMeta("nested-dropped")).toBe(false);
  });
});
