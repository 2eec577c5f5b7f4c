/**
 * After an erasure, SQLite's write-ahead log is emptied without waiting on
 * a lock: a reader that holds it keeps it from that, which the log says,
 * and once the reader is done the next try empties it.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/server/platform/db/connection.ts";
import {
  forgetErasedRows,
  LOG_NOT_EMPTIED_MESSAGE,
} from "../../src/server/platform/db/erased-rows.ts";
import { sqliteDriver } from "../../src/server/platform/db/sqlite-driver.ts";

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
