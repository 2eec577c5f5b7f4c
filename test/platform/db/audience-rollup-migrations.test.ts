/**
 * Migrations 036 and 037 on a database that already holds a site's figures:
 * the rollups keep every row and count they had, gain what their visits led
 * to (none, for days counted before) and the UTC hour as a dimension, and
 * still refuse a dimension that is none of theirs; the dimension index is
 * there to read them by. On both engines.
 */
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import { migrateToLatest, migrateUpTo } from "../../../src/server/platform/db/migrations.ts";
import { ENGINES, type TestDatabase } from "../../support/engines.ts";

const ROWS = [
  { day: "2026-11-27", dimension: "total", value: "", views: 30, visits: 10, visitors: 8 },
  { day: "2026-11-27", dimension: "channel", value: "search", views: 18, visits: 6, visitors: 5 },
  { day: "2026-11-26", dimension: "funnel", value: "contact", views: 3, visits: 3, visitors: 3 },
];

describe.each(ENGINES)("the audience rollups' migrations on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  // The table as it stood before the migrations, which the typed schema no longer names.
  // biome-ignore lint/suspicious/noExplicitAny: the schema before these migrations has no type
  let db: Kysely<any>;

  beforeAll(async () => {
    testDb = await engine.createEmpty();
    const { DATABASE_URL, SQLITE_FILE } = testDb.env;
    database = openDatabase({ databaseUrl: DATABASE_URL, sqliteFile: SQLITE_FILE ?? ":memory:" });
    db = database.db;
    await migrateUpTo(db, database.engine, "035_subscription_opt_in_dates");
    await db.insertInto("audience_days").values(ROWS).execute();
    await migrateToLatest(database.db, database.engine);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  it("keeps every row and count, with no conversions for the days before", async () => {
    const rows = await database.db
      .selectFrom("audience_days")
      .selectAll()
      .orderBy("day")
      .orderBy("dimension")
      .execute();
    const counted = rows.map((row) => ({
      ...row,
      views: Number(row.views),
      visits: Number(row.visits),
      visitors: Number(row.visitors),
      conversions: Number(row.conversions),
      inquiries: Number(row.inquiries),
      subscriptions: Number(row.subscriptions),
    }));
    const none = { conversions: 0, inquiries: 0, subscriptions: 0 };
    expect(counted).toEqual([
      { ...ROWS[2], ...none },
      { ...ROWS[1], ...none },
      { ...ROWS[0], ...none },
    ]);
  });

  it("takes an hour's row, and still refuses a dimension that is none of its own", async () => {
    const hour = { day: "2026-11-28", dimension: "hour" as const, value: "09", views: 1 };
    await database.db.insertInto("audience_days").values(hour).execute();
    await expect(
      db
        .insertInto("audience_days")
        .values({ ...hour, dimension: "weekday" })
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it("reads a dimension's days from its index", async () => {
    const indexes =
      database.engine === "postgres"
        ? await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where tablename = 'audience_days'`.execute(db)
        : await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'audience_days'`.execute(
            db,
          );
    expect(indexes.rows.map((row) => row.name)).toContain("audience_days_by_dimension");
  });
});
