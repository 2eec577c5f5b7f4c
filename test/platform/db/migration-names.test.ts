/**
 * The names the migrations are recorded under are history: a database keeps
 * the name of every migration it ran and runs no other under it again. These
 * are the names the code recorded when all migrations were still one file;
 * a database it migrated finds nothing to do after the split into one file
 * per migration, and a renamed or dropped name fails here before it reaches one.
 */
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/server/platform/db/connection.ts";
import {
  knownMigrations,
  migrateToLatest,
  migrateUpTo,
  schemaStatus,
} from "../../../src/server/platform/db/migrations.ts";
import { ENGINES, openTestDatabase, type TestDatabase } from "../../support/engines.ts";

const RECORDED_BEFORE_THE_SPLIT = [
  "001_initial",
  "002_outbox",
  "003_case_studies",
  "004_console",
  "005_outbox_priority",
  "006_bot_trips",
  "007_newsletter",
  "008_sign_in_keys",
  "009_totp_last_step",
  "010_case_study_outcomes",
  "011_issue_names",
  "012_delivery_reports",
  "014_send_guard",
  "015_mail_cooldowns",
  "016_inquiry_notifications",
  "017_turned_away",
  "018_domain_pacing",
  "019_notification_failure_seen",
  "020_fold_text",
  "021_archive_corrections",
  "022_mail_settings",
  "023_content_drafts",
  "024_menu_lines",
  "025_backups",
  "026_outbox_body_removed",
  "027_audience",
  "028_lead_sources",
  "029_subscriber_imports",
  "030_webhooks",
  "031_audience_figures",
  "032_report_proof",
  "033_audience_value_caps",
  "034_webhook_deliveries_by_endpoint",
];

const MIGRATIONS_DIR = new URL("../../../src/server/platform/db/migrations/", import.meta.url);
/** The folder's modules that are not a migration. */
const NOT_MIGRATIONS = ["index.ts", "shared.ts"];

describe("migration names", () => {
  it("keeps every name recorded before the split, in order, and adds only after them", () => {
    const known = knownMigrations();
    expect(known.slice(0, RECORDED_BEFORE_THE_SPLIT.length)).toEqual(RECORDED_BEFORE_THE_SPLIT);
    expect(known).toEqual([...known].sort());
  });

  it("has one file per migration, named after it", () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((file) => !NOT_MIGRATIONS.includes(file));
    const expected = knownMigrations().map((name) => `${name.replaceAll("_", "-")}.ts`);
    expect(files.sort()).toEqual(expected);
  });
});

describe.each(ENGINES)("a database the code before the split migrated, on $engine", (engine) => {
  const last = RECORDED_BEFORE_THE_SPLIT.at(-1) ?? "";
  let testDb: TestDatabase;
  let database: DatabaseHandle;

  beforeAll(async () => {
    testDb = await engine.createEmpty();
    database = openTestDatabase(testDb);
    await migrateUpTo(database.db, database.engine, last);
  });
  afterAll(async () => {
    await database.db.destroy();
    await testDb.drop();
  });

  it("holds the record that code wrote, name for name", async () => {
    const recorded = await database.db
      .selectFrom("kysely_migration" as never)
      .select("name" as never)
      .orderBy("name" as never)
      .execute();
    expect(recorded.map((row) => (row as { name: string }).name)).toEqual(
      RECORDED_BEFORE_THE_SPLIT,
    );
  });

  it("has only migrations newer than the split left to run, and then none", async () => {
    const before = await schemaStatus(database.db, database.engine);
    expect(before.unknown).toEqual([]);
    expect(before.pending).toEqual(knownMigrations().slice(RECORDED_BEFORE_THE_SPLIT.length));
    await migrateToLatest(database.db, database.engine);
    const after = await schemaStatus(database.db, database.engine);
    expect(after.pending).toEqual([]);
    expect(after.applied.map(({ name }) => name)).toEqual(knownMigrations());
  });
});
