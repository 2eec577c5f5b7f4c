/**
 * The database engines the API tests run against: SQLite always, PostgreSQL
 * when TEST_DATABASE_URL is set. Each PostgreSQL test database is a fresh
 * schema, so test files can run side by side on one server.
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

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

const postgres = (url: string): EngineCase => ({
  engine: "postgres",
  async create() {
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    return {
      env: { DATABASE_URL: withSearchPath(url, schema) },
      async drop() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
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
