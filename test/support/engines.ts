/**
 * The database engines the API tests run against: SQLite always, PostgreSQL
 * when TEST_DATABASE_URL is set. Each PostgreSQL test database is a database
 * of its own on that server, so test files run side by side and no test's
 * catalogue query meets another's tables while they are created or dropped.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../../src/server/platform/db/connection.ts";
import { migrateToLatest } from "../../src/server/platform/db/migrations.ts";

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;
export const POSTGRES_SKIP_REASON = "PostgreSQL tests skipped: TEST_DATABASE_URL is not set";

export interface TestDatabase {
  /** Environment for the server: DATABASE_URL or SQLITE_FILE. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export interface EngineCase {
  engine: "sqlite" | "postgres";
  create(): Promise<TestDatabase>;
}

const sqlite: EngineCase = {
  engine: "sqlite",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "site-test-"));
    return { env: { SQLITE_FILE: join(dir, "site.db") }, drop: async () => {} };
  },
};

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

const postgres = (url: string): EngineCase => ({
  engine: "postgres",
  async create() {
    const database = `test_${randomBytes(6).toString("hex")}`;
    await onServer(url, `create database ${database}`);
    return {
      env: { DATABASE_URL: withDatabase(url, database) },
      // Whatever a test left connected (a killed server's pool) goes with it.
      drop: () => onServer(url, `drop database if exists ${database} with (force)`),
    };
  },
});

export const ENGINES: EngineCase[] = POSTGRES_URL ? [sqlite, postgres(POSTGRES_URL)] : [sqlite];

/** Opens a test database, as the server would from its environment, with its schema up to date. */
export async function openMigrated(testDb: TestDatabase): Promise<DatabaseHandle> {
  const database = openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
  await migrateToLatest(database.db, database.engine);
  return database;
}
