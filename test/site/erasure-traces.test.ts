/**
 * Erasing a person leaves nothing of what they sent anywhere the site keeps
 * things: a person sends an inquiry and subscribes, their mail is written to
 * the mailbox folder, an owner erases them through the console, and then
 * their marker is looked for in every file under the site's data folder (the
 * SQLite file and its -wal and -shm, the mail and media folders), in the
 * log, in a backup taken afterwards, and on PostgreSQL in a dump of the
 * database and in the tables' pages, where a deleted row lives on as a dead
 * tuple until a vacuum.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import * as tar from "tar";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DATABASE_FILES, takeBackup } from "../../src/server/features/backups/index.ts";
import {
  DEAD_ROWS_LEFT_MESSAGE,
  VACUUMED_MESSAGE,
} from "../../src/server/platform/db/erased-rows.ts";
import { INQUIRY_PATHS, inquiryPath } from "../../src/shared/admin/inquiries.ts";
import { subscriberPath } from "../../src/shared/admin/subscribers.ts";
import { openSession, post, startApp, type TestApp } from "../support/app.ts";
import { createAccount, signIn } from "../support/console.ts";
import { ENGINES, type TestDatabase } from "../support/engines.ts";
import { VALID_INQUIRY } from "../support/fixtures.ts";
import { FAST_OUTBOX } from "../support/mail-env.ts";

const run = promisify(execFile);
const DUMP_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The files under `dir` whose bytes hold `marker`, as paths relative to `root`. */
function filesHolding(dir: string, marker: string, root = dir): string[] {
  const found: string[] = [];
  const needle = Buffer.from(marker);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (readFileSync(path).includes(needle)) found.push(relative(root, path));
  }
  return found;
}

/** The tables whose pages still hold a tuple, live or dead, carrying `marker` (PostgreSQL). */
async function tablesWithTuplesHolding(t: TestApp, marker: string): Promise<string[]> {
  const { db } = t.database;
  await sql`create extension if not exists pageinspect`.execute(db);
  const { rows } = await sql<{ name: string }>`
    select distinct c.relname as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    cross join lateral generate_series(
      0, (pg_relation_size(c.oid) / current_setting('block_size')::int)::int - 1
    ) as page
    cross join lateral heap_page_items(get_raw_page(c.oid::regclass::text, page)) as item
    where n.nspname = current_schema() and c.relkind = 'r'
      and position(convert_to(${marker}, 'UTF8') in item.t_data) > 0
    order by 1`.execute(db);
  return rows.map((row) => `dead tuples in ${row.name}`);
}

describe.each(ENGINES)("erasing a person on $engine", (engine) => {
  let t: TestApp | undefined;
  let testDb: TestDatabase | undefined;
  afterEach(async () => {
    await t?.close();
    await testDb?.drop();
    t = undefined;
    testDb = undefined;
  });

  it("leaves their marker in no file, log line, dump or new backup", async () => {
    const marker = `zq8-marker-${randomBytes(6).toString("hex")}`;
    const email = `${marker}@example.org`;
    testDb = await engine.create();
    // On SQLite the data folder is the database file's own; every folder the site writes sits in it.
    const sqliteFile = testDb.env.SQLITE_FILE;
    const dataDir = sqliteFile ? dirname(sqliteFile) : mkdtempSync(join(tmpdir(), "erasure-data-"));
    const folders = { MAILBOX_DIR: join(dataDir, "mail"), MEDIA_DIR: join(dataDir, "media") };
    for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true });
    t = await startApp(
      engine,
      {
        ...FAST_OUTBOX,
        ...folders,
        // The subscriber gets mail of their own: the confirmation.
        NEWSLETTER_DOUBLE_OPT_IN: "true",
        BACKUP_DIR: mkdtempSync(join(tmpdir(), "erasure-backups-")),
      },
      { shared: testDb },
    );
    const { app, database, config, logs } = t;

    const session = await openSession(app);
    const inquiry = await post(app, session, "/api/v1/send-comment", {
      ...VALID_INQUIRY,
      lastName: marker,
      company: `${marker} Holdings`,
      email,
      phoneNumber: "+44 20 7946 0958",
      comments: `Please call me back about ${marker}.`,
    });
    expect(inquiry.statusCode, inquiry.body).toBe(200);
    const subscribed = await post(
      app,
      session,
      `/api/v1/subscribe?emailId=${encodeURIComponent(email)}`,
    );
    expect(subscribed.statusCode, subscribed.body).toBeLessThan(300);
    // The firm's notification of the inquiry, and the subscriber's confirmation.
    await vi.waitFor(
      () => expect(filesHolding(config.MAILBOX_DIR, marker).length).toBeGreaterThanOrEqual(2),
      { timeout: 15_000, interval: 50 },
    );

    await createAccount(database, "owner", "erasing-owner@firm.example");
    const owner = await signIn(app, "erasing-owner@firm.example");
    const inquiryId = inquiry.json().id as number;
    const erasedInquiries = await owner.request(
      "DELETE",
      inquiryPath(INQUIRY_PATHS.one, inquiryId),
      {
        email,
      },
    );
    expect(erasedInquiries.statusCode, erasedInquiries.body).toBe(200);
    const subscriber = await database.db
      .selectFrom("subscriptions")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const erasedSubscriber = await owner.request("DELETE", subscriberPath(subscriber.id), {
      email,
    });
    expect(erasedSubscriber.statusCode, erasedSubscriber.body).toBe(204);

    const places: string[] = [];
    if (engine.engine === "postgres") {
      // Each erasure's vacuum runs after its answer: wait for both to say they are done.
      await vi.waitFor(
        () =>
          expect(
            logs.filter(
              (line) => line.includes(VACUUMED_MESSAGE) || line.includes(DEAD_ROWS_LEFT_MESSAGE),
            ).length,
          ).toBeGreaterThanOrEqual(2),
        { timeout: 90_000, interval: 100 },
      );
      const left = await tablesWithTuplesHolding(t as TestApp, marker);
      places.push(...left);
      const { stdout } = await run("/usr/bin/pg_dump", ["--data-only", config.DATABASE_URL ?? ""], {
        maxBuffer: DUMP_OUTPUT_BYTES,
      });
      if (stdout.includes(marker)) places.push("pg_dump of the database");
    }
    places.push(...filesHolding(dataDir, marker).map((file) => `data folder: ${file}`));
    if (logs.some((line) => line.includes(marker))) places.push("the log");

    const archive = join(config.BACKUP_DIR, "after-erasure.tar.gz");
    await takeBackup(
      { config, db: database.db, engine: database.engine },
      { out: archive, recordId: null, now: Date.now },
    );
    const unpacked = mkdtempSync(join(tmpdir(), "erasure-backup-"));
    await tar.extract({ file: archive, cwd: unpacked });
    places.push(...filesHolding(unpacked, marker).map((file) => `backup: ${file}`));
    if (engine.engine === "postgres") {
      // The archive's dump is compressed: pg_restore turns it back into SQL to search.
      const { stdout } = await run(
        "/usr/bin/pg_restore",
        ["--data-only", "-f", "-", join(unpacked, DATABASE_FILES.postgres)],
        { maxBuffer: DUMP_OUTPUT_BYTES },
      );
      if (stdout.includes(marker)) places.push("backup: the database dump");
    }

    expect(places).toEqual([]);
  }, 150_000);
});
