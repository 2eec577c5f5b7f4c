/**
 * Opens the database: PostgreSQL when a URL is given, otherwise a SQLite file.
 * Both engines are driven by the same Kysely queries and migrations.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import pg from "pg";
import type { Database } from "./schema.ts";
import { sqliteDriver } from "./sqlite-driver.ts";

export type Engine = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  sqliteFile: string;
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Transactions that take SQLite's write lock when they begin (BEGIN
 * IMMEDIATE). Kysely begins a deferred one, which takes the lock only at its
 * first write: if another connection to the file (a CLI such as admin:create,
 * or a test) commits between that transaction's first read and its first
 * write, SQLite refuses the write at once with SQLITE_BUSY, without waiting
 * busy_timeout, and the request fails. Every transaction here writes, so each
 * waits its turn at the start instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      engine: "postgres",
    };
  }
  if (options.sqliteFile !== ":memory:")
    mkdirSync(dirname(options.sqliteFile), { recursive: true });
  const SQLite = sqliteDriver();
  const sqlite = new SQLite(options.sqliteFile);
  // WAL lets readers run beside the writer; FULL syncs the WAL on every commit,
  // so an answered 2xx survives a power cut, not just a process crash.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  return {
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) }),
    engine: "sqlite",
  };
}
