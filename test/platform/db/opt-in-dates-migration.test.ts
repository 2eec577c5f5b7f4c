/**
 * Migration 035 gives each subscription an import brought the opt-in date
 * its former list kept: the date its history line recorded, or the import's
 * own consent day where it wrote none (double opt-in); a subscription asked
 * for here, or begun anew after its import, keeps none. On both engines,
 * PostgreSQL's sessions in a time zone other than UTC, so that a day alone
 * must still be read as its start in UTC.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import { migrateToLatest, migrateUpTo } from "../../../src/server/platform/db/migrations.ts";
import { ENGINES, type TestDatabase } from "../../support/engines.ts";

const IMPORTED_AT = "2026-03-01T09:00:00.000Z";

describe.each(ENGINES)("migration 035 on $engine", (engine) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  // The tables as they stood before the migration, which the typed schema no longer names.
  // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration has no type
  let before: Kysely<any>;

  beforeAll(async () => {
    testDb = await engine.createEmpty();
    const { DATABASE_URL, SQLITE_FILE } = testDb.env;
    database = openDatabase({
      databaseUrl: DATABASE_URL && `${DATABASE_URL}?options=-c%20TimeZone%3DEurope%2FBerlin`,
      sqliteFile: SQLITE_FILE ?? ":memory:",
    });
    before = database.db;
    await migrateUpTo(before, database.engine, "034_webhook_deliveries_by_endpoint");

    const { id: importId } = await before
      .insertInto("subscriber_imports")
      .values({
        file_name: "list.csv",
        format: "mailchimp",
        consent_source: "The old site's form",
        consent_date: "2021-05-04",
        double_opt_in: 0,
        rows_read: 3,
        added: 3,
        already_on_list: 0,
        refused: 0,
        created_at: IMPORTED_AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const add = async (email: string, via: string, fromImport: boolean) => {
      const { id } = await before
        .insertInto("subscriptions")
        .values({
          email,
          subscribed_at: IMPORTED_AT,
          subscribed_via: via,
          confirmed_at: IMPORTED_AT,
          import_id: fromImport ? importId : null,
          created_at: IMPORTED_AT,
          updated_at: IMPORTED_AT,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return id as number;
    };
    const withLine = await add("dated@example.org", "import", true);
    await before
      .insertInto("subscription_events")
      .values({
        subscription_id: withLine,
        event: "subscribed",
        via: "import",
        at: IMPORTED_AT,
        consent_source: "The old site's form",
        consent_date: "2020-02-03T10:00:00.000Z",
        import_id: importId,
      })
      .execute();
    await add("confirming@example.org", "import", true);
    await add("came-back@example.org", "form", true);
    await add("here@example.org", "form", false);

    await migrateToLatest(database.db, database.engine);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  it("dates each imported subscription by its former list's opt-in, and no other", async () => {
    const rows = await database.db
      .selectFrom("subscriptions")
      .select(["email", "opted_in_at", "subscribed_at"])
      .orderBy("email")
      .execute();
    expect(rows).toEqual([
      { email: "came-back@example.org", opted_in_at: null, subscribed_at: IMPORTED_AT },
      {
        email: "confirming@example.org",
        opted_in_at: "2021-05-04T00:00:00.000Z",
        subscribed_at: IMPORTED_AT,
      },
      {
        email: "dated@example.org",
        opted_in_at: "2020-02-03T10:00:00.000Z",
        subscribed_at: IMPORTED_AT,
      },
      { email: "here@example.org", opted_in_at: null, subscribed_at: IMPORTED_AT },
    ]);
  });
});
