/**
 * A transaction on SQLite holds the write lock from its start (connection.ts),
 * so another connection to the same file (a CLI, a test) cannot commit
 * between its first read and its first write, which would make SQLite refuse
 * that write with SQLITE_BUSY at once, whatever the busy timeout.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/server/platform/db/connection.ts";
import { sqliteDriver } from "../../../src/server/platform/db/sqlite-driver.ts";

describe("a SQLite transaction", () => {
  const file = join(mkdtempSync(join(tmpdir(), "sqlite-transactions-")), "site.db");
  const { db } = openDatabase({ sqliteFile: file });
  // A second connection that does not wait: a held-off write fails at once.
  const other = new (sqliteDriver())(file);
  other.pragma("busy_timeout = 0");
  afterEach(async () => {
    other.close();
    await db.destroy();
  });

  it("keeps another connection from writing between its read and its write", async () => {
    await sql`create table notes (text text not null)`.execute(db);
    const insertOther = other.prepare("insert into notes (text) values ('other')");

    await db.transaction().execute(async (trx) => {
      await sql`select count(*) from notes`.execute(trx);
      expect(() => insertOther.run()).toThrow(/database is locked/);
      await sql`insert into notes (text) values ('mine')`.execute(trx);
    });

    insertOther.run();
    const { rows } = await sql<{ text: string }>`select text from notes order by rowid`.execute(db);
    expect(rows.map((row) => row.text)).toEqual(["mine", "other"]);
  });
});
