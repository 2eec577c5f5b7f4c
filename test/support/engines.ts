/**
 * The database engines the API tests run against: SQLite always, PostgreSQL
 * when TEST_DATABASE_URL is set. Each PostgreSQL test database is a database
 * of its own on that server, so test files run side by side and no test's
 * catalogue query meets another's tables while they are created or dropped.
 *
 * A test database starts at the latest schema. Migrating one from nothing
 * takes a tenth of a second on SQLite and half a second on PostgreSQL, and
 * the suite makes well over a thousand; so the run migrates one database per
 * engine once (test/support/template-databases.ts) and each test database is
 * a copy of it: the file copied on SQLite, `create database … template` on
 * PostgreSQL. Outside the test runner (the benchmarks) there is no template
 * and each database is migrated as it is made.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync } from "node:fs";
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
  /** A new database at the latest schema. */
  create(): Promise<TestDatabase>;
  /** A new database with no schema at all, for the tests of the migrations themselves. */
  createEmpty(): Promise<TestDatabase>;
}

/** Where the run's migrated databases are, set by test/support/template-databases.ts. */
export const TEMPLATE_ENV = {
  sqlite: "TEST_SQLITE_TEMPLATE_FILE",
  postgres: "TEST_POSTGRES_TEMPLATE_DATABASE",
} as const;

async function migrated(testDb: TestDatabase): Promise<TestDatabase> {
  const database = await openMigrated(testDb);
  await database.db.destroy();
  return testDb;
}

async function newSqliteDatabase(template?: string): Promise<TestDatabase> {
  const file = join(mkdtempSync(join(tmpdir(), "site-test-")), "site.db");
  if (template) copyFileSync(template, file);
  return { env: { SQLITE_FILE: file }, drop: async () => {} };
}

const sqlite: EngineCase = {
  engine: "sqlite",
  async create() {
    const template = process.env[TEMPLATE_ENV.sqlite];
    return template ? newSqliteDatabase(template) : migrated(await newSqliteDatabase());
  },
  createEmpty: () => newSqliteDatabase(),
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

async function newPostgresDatabase(url: string, template?: string): Promise<TestDatabase> {
  const database = `test_${randomBytes(6).toString("hex")}`;
  await onServer(url, `create database ${database}${template ? ` template ${template}` : ""}`);
  return {
    env: { DATABASE_URL: withDatabase(url, database) },
    // Whatever a test left connected (a killed server's pool) goes with it.
    drop: () => onServer(url, `drop database if exists ${database} with (force)`),
  };
}

const postgres = (url: string): EngineCase => ({
  engine: "postgres",
  async create() {
    const template = process.env[TEMPLATE_ENV.postgres];
    return template ? newPostgresDatabase(url, template) : migrated(await newPostgresDatabase(url));
  },
  createEmpty: () => newPostgresDatabase(url),
});

/**
 * Both engines, for a test file that runs SQL on PostgreSQL no other file
 * runs there: a query, or a branch of the server's code for that engine.
 */
export const ENGINES: EngineCase[] = POSTGRES_URL ? [sqlite, postgres(POSTGRES_URL)] : [sqlite];

/**
 * SQLite alone, for a test file whose every SQL path other files run on
 * PostgreSQL too. test/platform/db/sql-paths-on-both.test.ts checks that
 * after each whole run, and names the file to put back on ENGINES when a
 * change gives it a path of its own (ADR 078).
 */
export const SQLITE_ONLY: EngineCase[] = [sqlite];

/** Opens a test database as the server would from its environment, its schema as it is. */
export function openTestDatabase(testDb: TestDatabase): DatabaseHandle {
  return openDatabase({
    databaseUrl: testDb.env.DATABASE_URL,
    sqliteFile: testDb.env.SQLITE_FILE ?? ":memory:",
  });
}

/** Opens a test database, as the server would from its environment, with its schema up to date. */
export async function openMigrated(testDb: TestDatabase): Promise<DatabaseHandle> {
  const database = openTestDatabase(testDb);
  await migrateToLatest(database.db, database.engine);
  return database;
}
