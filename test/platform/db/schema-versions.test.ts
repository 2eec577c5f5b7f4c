/**
 * A database migrated by a newer version of the site: the server will not
 * start on it and says so in one sentence, and `npm run db:status` names the
 * migrations this version does not know. An older database is brought up to
 * date, and db:status lists what is pending without applying it.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/server/platform/db/connection.ts";
import {
  migrateToLatest,
  migrateUpTo,
  NewerSchemaError,
  schemaStatus,
} from "../../../src/server/platform/db/migrations.ts";
import { childOutput } from "../../support/child-output.ts";
import { ENGINES, type TestDatabase } from "../../support/engines.ts";
import { nodeArgs } from "../../support/entry.ts";
import { runServer } from "../../support/server-process.ts";

const FROM_THE_FUTURE = "999_from_a_newer_version";
/** A server that starts anyway is stopped after this, so the test fails without leaving it running. */
const START_LIMIT_MS = 25_000;

const finished = (child: ReturnType<typeof spawn>) => childOutput(child, START_LIMIT_MS);

function dbStatus(env: Record<string, string>) {
  return finished(
    spawn(process.execPath, nodeArgs("src/server/cli/db-status.ts"), {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

function opened(testDb: TestDatabase) {
  return openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
}

describe.each(ENGINES)("schema versions on $engine", (engine) => {
  let older: TestDatabase;
  let newer: TestDatabase;
  beforeAll(async () => {
    older = await engine.createEmpty();
    const olderDb = opened(older);
    await migrateUpTo(olderDb.db, olderDb.engine, "020_fold_text");
    await olderDb.db.destroy();

    newer = await engine.create();
    const newerDb = opened(newer);
    await migrateToLatest(newerDb.db, newerDb.engine);
    await newerDb.db
      .insertInto("kysely_migration" as never)
      .values({ name: FROM_THE_FUTURE, timestamp: new Date().toISOString() } as never)
      .execute();
    await newerDb.db.destroy();
  });
  afterAll(async () => {
    await older.drop();
    await newer.drop();
  });

  it("db:status lists the pending migrations of an older database and applies none", async () => {
    const { code, stdout } = await dbStatus(older.env);
    expect(code).toBe(2);
    expect(stdout).toMatch(/^applied {2}020_fold_text {2}\d{4}-/m);
    expect(stdout).toMatch(/^pending {2}021_/m);
    expect(stdout).toMatch(/pending: the next start of the site applies them\.$/m);
    const again = opened(older);
    const status = await schemaStatus(again.db, again.engine);
    await again.db.destroy();
    expect(status.applied.at(-1)?.name).toBe("020_fold_text");
    expect(status.pending.length).toBeGreaterThan(0);
  });

  it("refuses to migrate a database a newer version migrated, naming its migration", async () => {
    const database = opened(newer);
    try {
      const status = await schemaStatus(database.db, database.engine);
      expect(status).toMatchObject({ pending: [], unknown: [FROM_THE_FUTURE] });
      await expect(migrateToLatest(database.db, database.engine)).rejects.toBeInstanceOf(
        NewerSchemaError,
      );
    } finally {
      await database.db.destroy();
    }
  });

  it("the server will not start on it, and says why and how to go back in one line", async () => {
    const { code, stderr } = await finished(runServer(newer.env));
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      `This database was migrated by a newer version of the site (${FROM_THE_FUTURE}, which this version does not know), so this version will not use it. Run the newer version, or go back by restoring the backup taken before the upgrade.`,
    ]);
  });

  it("db:status names the unknown migration and exits 1", async () => {
    const { code, stdout } = await dbStatus(newer.env);
    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`^unknown {2}${FROM_THE_FUTURE}$`, "m"));
    expect(stdout).toContain("migrated by a newer version of the site");
  });
});

describe("db:status on a SQLite file that does not exist", () => {
  it("says there is no database and creates none", async () => {
    const file = `/tmp/no-such-dir-${process.pid}/site.db`;
    const { code, stderr } = await dbStatus({ SQLITE_FILE: file, DATABASE_URL: "" });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `There is no database at ${file}: start the site once (npm start) to create it, or set SQLITE_FILE or DATABASE_URL.`,
    );
    expect(existsSync(dirname(file))).toBe(false);
  });
});
