/**
 * After an erasure, SQLite's write-ahead log is emptied without waiting on
 * a lock: a reader that holds it keeps it from that, which the log says,
 * and once the reader is done the next try empties it. On PostgreSQL the
 * vacuum after it passes over a page another query is reading, so it is
 * tried again until the deleted rows are gone from the table's pages.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import {
  forgetErasedRows,
  LOG_NOT_EMPTIED_MESSAGE,
  VACUUMED_MESSAGE,
} from "../../../src/server/platform/db/erased-rows.ts";
import type { Database } from "../../../src/server/platform/db/schema.ts";
import { sqliteDriver } from "../../../src/server/platform/db/sqlite-driver.ts";
import {
  ENGINES,
  type EngineCase,
  POSTGRES_SKIP_REASON,
  type TestDatabase,
} from "../../support/engines.ts";

const postgres = ENGINES.find((engine) => engine.engine === "postgres");
if (!postgres) console.warn(POSTGRES_SKIP_REASON);

describe("SQLite's log after an erasure", () => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.db.destroy();
  });

  it("is emptied, and said not to be while a reader holds it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "erased-rows-")), "site.db");
    database = openDatabase({ sqliteFile: file });
    await sql`create table notes (text text not null)`.execute(database.db);
    await sql`insert into notes (text) values (${"a person's words"})`.execute(database.db);
    const logged: string[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => logged.push(line) });
    const walSize = () => statSync(`${file}-wal`).size;

    // Another connection's read transaction keeps the log's frames in use.
    const SQLite = sqliteDriver();
    const reader = new SQLite(file, { readonly: true });
    reader.prepare("begin").run();
    reader.prepare("select count(*) from notes").get();
    await sql`delete from notes`.execute(database.db);
    try {
      await forgetErasedRows(database, [], log);
      expect(logged.join("")).toContain(LOG_NOT_EMPTIED_MESSAGE);
      expect(walSize()).toBeGreaterThan(0);
    } finally {
      reader.prepare("commit").run();
      reader.close();
    }

    await forgetErasedRows(database, [], log);
    expect(walSize()).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(0);
  });
});

describe.skipIf(!postgres)("PostgreSQL's pages after an erasure", () => {
  let testDb: TestDatabase | undefined;
  let database: DatabaseHandle | undefined;
  const sessions: pg.Client[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.end();
    await database?.db.destroy();
    await testDb?.drop();
  });

  async function session(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    sessions.push(client);
    return client;
  }

  it("are vacuumed again when a reader kept the vacuum from a page, until the rows are gone", async () => {
    testDb = await (postgres as EngineCase).createEmpty();
    const url = testDb.env.DATABASE_URL ?? "";
    database = openDatabase({ databaseUrl: url, sqliteFile: ":memory:" });
    const { db } = database;
    // A table of the test's own, outside the site's schema.
    const notes = "notes" as keyof Database;
    const words = "a person's words, 7f3e";
    await sql`create extension if not exists pageinspect`.execute(db);
    await sql`create table notes (text text not null)`.execute(db);
    await sql`insert into notes (text) values (${words}), ('kept')`.execute(db);
    const logged: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => logged.push(line) });
    const tuplesHoldingWords = async () => {
      const { rows } = await sql<{ count: string }>`
        select count(*) as count from heap_page_items(get_raw_page('notes', 0))
        where position(convert_to(${words}, 'UTF8') in t_data) > 0`.execute(db);
      return Number(rows[0]?.count);
    };
    const vacuumCount = async () => {
      const { rows } = await sql<{ count: string }>`
        select vacuum_count as count from pg_stat_user_tables where relname = 'notes'`.execute(db);
      return Number(rows[0]?.count);
    };
    const vacuumWaiting = async () => {
      const { rows } = await sql<{ waiting: boolean }>`
        select exists (select 1 from pg_locks
          where relation = 'notes'::regclass and not granted) as waiting`.execute(db);
      return rows[0]?.waiting === true;
    };

    await sql`delete from notes where text = ${words}`.execute(db);
    // The vacuum is held at the table's lock, which takes no snapshot, while
    // a reader starts after it has stopped waiting for older snapshots: a
    // cursor part way through the table keeps its one page pinned.
    const locker = await session(url);
    await locker.query("begin");
    await locker.query("lock table notes in share update exclusive mode");
    await forgetErasedRows(database, [notes], log);
    await vi.waitFor(async () => expect(await vacuumWaiting()).toBe(true), {
      timeout: 30_000,
      interval: 50,
    });
    const reader = await session(url);
    await reader.query("begin");
    await reader.query("declare reading cursor for select * from notes");
    await reader.query("fetch 1 from reading");
    await locker.query("commit");

    await vi.waitFor(async () => expect(await vacuumCount()).toBeGreaterThanOrEqual(1), {
      timeout: 30_000,
      interval: 50,
    });
    // The vacuum passed over the page the reader holds.
    expect(await tuplesHoldingWords()).toBe(1);
    await reader.query("commit");

    await vi.waitFor(() => expect(logged.join("")).toContain(VACUUMED_MESSAGE), {
      timeout: 30_000,
      interval: 50,
    });
    expect(await tuplesHoldingWords()).toBe(0);
  });
});
