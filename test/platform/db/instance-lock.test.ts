/**
 * The instance lock on both engines: running instances share it, and a
 * restore takes it alone only when none holds it; an instance does not
 * start while a restore has it. On SQLite it lives in an owner-only file
 * beside the database.
 */
import { statSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  DatabaseInUseRefusal,
  holdInstanceLock,
  INSTANCE_LOCK_LOST_MESSAGE,
  INSTANCES_FILE_SUFFIX,
  type LockPlace,
  takeSoleLock,
} from "../../../src/server/platform/db/instance-lock.ts";
import { ENGINES, POSTGRES_SKIP_REASON, type TestDatabase } from "../../support/engines.ts";

const quiet = { warn() {} };
const postgres = ENGINES.find((engine) => engine.engine === "postgres");
if (!postgres) console.warn(POSTGRES_SKIP_REASON);

describe.each(ENGINES)("the instance lock on $engine", (engine) => {
  let testDb: TestDatabase;
  let place: LockPlace;

  beforeAll(async () => {
    testDb = await engine.create();
    place = { databaseUrl: testDb.env.DATABASE_URL, sqliteFile: testDb.env.SQLITE_FILE ?? "" };
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it("is shared by instances, and taken alone only once the last of them has let go", async () => {
    const first = await holdInstanceLock(place, quiet);
    const second = await holdInstanceLock(place, quiet);
    expect(await takeSoleLock(place)).toBeNull();
    await first.release();
    expect(await takeSoleLock(place)).toBeNull();
    await second.release();
    const sole = await takeSoleLock(place);
    expect(sole).not.toBeNull();
    await sole?.release();
  });

  it("keeps an instance from starting while a restore has the database to itself", async () => {
    const sole = await takeSoleLock(place);
    expect(sole).not.toBeNull();
    try {
      const refused = holdInstanceLock(place, quiet);
      await expect(refused).rejects.toBeInstanceOf(DatabaseInUseRefusal);
      await expect(refused).rejects.toThrow(
        "The database is being restored (npm run restore has it to itself): start the site again when the restore has finished.",
      );
      expect(await takeSoleLock(place)).toBeNull();
    } finally {
      await sole?.release();
    }
    const instance = await holdInstanceLock(place, quiet);
    await instance.release();
  });
});

describe("the instance lock's SQLite file", () => {
  it("lies beside the database, for the site's user alone", async () => {
    const sqlite = ENGINES.find((engine) => engine.engine === "sqlite");
    const testDb = await sqlite?.create();
    const place = { sqliteFile: testDb?.env.SQLITE_FILE ?? "" };
    const instance = await holdInstanceLock(place, quiet);
    await instance.release();
    const mode = statSync(`${place.sqliteFile}${INSTANCES_FILE_SUFFIX}`).mode & 0o777;
    expect(mode.toString(8)).toBe("600");
  });
});

describe.skipIf(!postgres)("an instance's PostgreSQL lock connection", () => {
  it("reports its loss as a warning, without ending the process", async () => {
    const testDb = (await postgres?.create()) as TestDatabase;
    const url = testDb.env.DATABASE_URL ?? "";
    const warnings: string[] = [];
    const instance = await holdInstanceLock(
      { databaseUrl: url, sqliteFile: "unused.db" },
      { warn: (_details, message) => warnings.push(message) },
    );
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: string }>(
        `select count(pg_terminate_backend(pid)) as ended from pg_locks
         where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
      );
      expect(Number(rows[0]?.ended)).toBe(1);
      await vi.waitFor(() => expect(warnings).toEqual([INSTANCE_LOCK_LOST_MESSAGE]));
      await instance.release();
    } finally {
      await admin.end();
      await testDb.drop();
    }
  });
});
