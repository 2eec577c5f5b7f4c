/**
 * The server's SQLite connection never checkpoints: a large commit leaves
 * its pages in the write-ahead log, and the worker copies them into the
 * database file, off the thread that answers visitors.
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import {
  CHECKPOINTS_BACK_HOME_MESSAGE,
  WalCheckpoints,
} from "../../../src/server/platform/db/wal-checkpoints.ts";

/** Far more than SQLite's own threshold of 1,000 pages: its connection would checkpoint at once. */
const ROWS = 4_000;
const ROW = "x".repeat(2_000);

describe("SQLite checkpoints off the server's thread", () => {
  let database: DatabaseHandle | undefined;
  let checkpoints: WalCheckpoints | undefined;
  afterEach(async () => {
    await checkpoints?.stop();
    await database?.db.destroy();
  });

  async function open() {
    const file = join(mkdtempSync(join(tmpdir(), "wal-checkpoints-")), "site.db");
    database = openDatabase({ sqliteFile: file });
    await sql`create table notes (text text not null)`.execute(database.db);
    return { db: database.db, file, size: () => statSync(file).size };
  }

  async function writeMany(db: DatabaseHandle["db"]) {
    await db.transaction().execute(async (trx) => {
      for (let row = 0; row < ROWS; row += 1) {
        await sql`insert into notes (text) values (${ROW})`.execute(trx);
      }
    });
  }

  it("leaves a large commit in the log, and the worker copies it into the file", async () => {
    const { db, file, size } = await open();
    checkpoints = await WalCheckpoints.takeOver(
      database as DatabaseHandle,
      file,
      pino({ level: "silent" }),
    );
    const before = size();
    await writeMany(db);
    // The commit checkpointed nothing: the file is as it was.
    expect(size()).toBe(before);

    const result = await checkpoints.checkpoint();
    expect(result.frames).toBeGreaterThan(1_000);
    expect(result).toMatchObject({ busy: false, checkpointed: result.frames });
    expect(size()).toBeGreaterThan(before + ROWS * ROW.length);
  });

  it("gives the checkpoints back to the server's connection when the worker cannot run them, saying so", async () => {
    const { db } = await open();
    const logged: string[] = [];
    const log = pino({ level: "error" }, { write: (line: string) => logged.push(line) });
    // A file the worker cannot open (fileMustExist): its first round fails.
    const missing = join(mkdtempSync(join(tmpdir(), "wal-checkpoints-")), "none.db");
    checkpoints = await WalCheckpoints.takeOver(database as DatabaseHandle, missing, log);
    const { rows: off } = await sql<{
      wal_autocheckpoint: number;
    }>`pragma wal_autocheckpoint`.execute(db);
    expect(off[0]?.wal_autocheckpoint).toBe(0);

    checkpoints.start();
    await expect.poll(() => logged.join("")).toContain(CHECKPOINTS_BACK_HOME_MESSAGE);
    await expect
      .poll(
        async () =>
          (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]
            ?.wal_autocheckpoint,
      )
      .toBe(1_000);
  });
});
