/**
 * Opens the database: PostgreSQL when a URL is given, otherwise a SQLite file.
 * Both engines are driven by the same Kysely queries and migrations.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type LogEvent,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import pg from "pg";
import { Refusal } from "../refusal.ts";
import { ownerOnlyFile, ownerOnlyFolder, tighten } from "../security/owner-only.ts";
import type { Database } from "./schema.ts";
import { sqliteDriver } from "./sqlite-driver.ts";
import { registerTextFold } from "./text-search.ts";

export type Engine = "sqlite" | "postgres";

/** The files SQLite keeps beside its database file in WAL mode. */
const SQLITE_JOURNALS = ["-wal", "-shm"];

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** What the operator's figures read (platform/ops/metrics.ts). */
  usage: DatabaseUsage;
}

export interface DatabaseUsage {
  /** Queries that failed since the start, whatever the reason (a conflict, a lost connection). */
  queryErrors: number;
  /** PostgreSQL's pool: its connections, the idle ones, and the queries waiting for one. */
  pool?: Pick<pg.Pool, "totalCount" | "idleCount" | "waitingCount">;
}

/** Kysely's log, counting the failed queries; the queries themselves are not logged. */
function countErrors(usage: DatabaseUsage) {
  return (event: LogEvent) => {
    if (event.level === "error") usage.queryErrors += 1;
  };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  sqliteFile: string;
  /** Where a lost PostgreSQL connection is reported; a process warning without it (the CLIs). */
  log?: ConnectionLog;
  /**
   * For the commands that only read: nothing is created or written, on
   * either engine; a SQLite file that does not exist is a refusal.
   */
  readOnly?: boolean;
  /** A SQLite file that does not exist is a refusal, not a new database (implied by `readOnly`). */
  mustExist?: boolean;
}

/** The configured SQLite file does not exist, and a reader must not create it. */
export class NoDatabaseError extends Refusal {
  constructor(file: string) {
    super(
      `There is no database at ${file}: start the site once (npm start) to create it, or set SQLITE_FILE or DATABASE_URL.`,
    );
  }
}

/** What is reported of a lost connection: the driver's code and message, never its address. */
interface ConnectionLog {
  warn(details: { code: string | undefined; message: string }, message: string): void;
}

export const CONNECTION_LOST_MESSAGE = "database connection lost";

export const SQLITE_BUSY_TIMEOUT_MS = 5000;

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

const processWarning: ConnectionLog = {
  warn: (details, message) =>
    process.emitWarning(`${message}: ${details.message} (${details.code ?? "no code"})`),
};

/**
 * A PostgreSQL connection that drops (terminated by an administrator, a
 * restart or fail-over, an idle time-out, a proxy's reset) emits "error",
 * which ends the process when nobody listens. Each connection gets a
 * listener: the loss is reported once, with the driver's message and code
 * (never the connection string). An idle connection is taken out of the pool
 * by the pool itself; one in use fails its query, and the pool discards it
 * when it comes back, as it can no longer run queries. The next request
 * opens a fresh connection.
 */
function reportLostConnections(pool: pg.Pool, log: ConnectionLog): void {
  pool.on("connect", (client) => {
    let reported = false;
    client.on("error", (error: Error & { code?: string }) => {
      if (reported) return;
      reported = true;
      log.warn({ code: error.code, message: error.message }, CONNECTION_LOST_MESSAGE);
    });
  });
  // The pool repeats an idle connection's error, already reported above.
  pool.on("error", () => {});
}

/**
 * PostgreSQL's timestamps are read as the ISO-8601 text SQLite stores (in
 * UTC, to the millisecond), so every row has one type of time whichever
 * engine it came from, and nothing further up converts it.
 */
const TIMESTAMP_TYPES = [pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP];
const isoTimestamps: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    const parse = pg.types.getTypeParser(oid, format ?? "text");
    if (!TIMESTAMP_TYPES.includes(oid)) return parse;
    return (value: string) => {
      const time = parse(value) as Date | number;
      return time instanceof Date ? time.toISOString() : time;
    };
  }) as pg.CustomTypesConfig["getTypeParser"],
};

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      types: isoTimestamps,
      ...(options.readOnly ? { options: "-c default_transaction_read_only=on" } : {}),
    });
    reportLostConnections(pool, options.log ?? processWarning);
    const usage: DatabaseUsage = { queryErrors: 0, pool };
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: countErrors(usage) }),
      engine: "postgres",
      usage,
    };
  }
  const SQLite = sqliteDriver();
  if ((options.readOnly || options.mustExist) && !existsSync(options.sqliteFile)) {
    throw new NoDatabaseError(options.sqliteFile);
  }
  if (options.sqliteFile !== ":memory:" && !options.readOnly) {
    // SQLite gives its -wal and -shm files the mode of the database file.
    ownerOnlyFolder(dirname(options.sqliteFile));
    ownerOnlyFile(options.sqliteFile);
    for (const journal of SQLITE_JOURNALS) tighten(`${options.sqliteFile}${journal}`);
  }
  const sqlite = new SQLite(options.sqliteFile, { readonly: options.readOnly ?? false });
  // WAL lets readers run beside the writer; FULL syncs the WAL on every commit,
  // so an answered 2xx survives a power cut, not just a process crash. (A
  // reader finds the file in WAL mode already: the mode is kept in the file.)
  if (!options.readOnly) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  registerTextFold(sqlite);
  const usage: DatabaseUsage = { queryErrors: 0 };
  return {
    db: new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: sqlite }),
      log: countErrors(usage),
    }),
    engine: "sqlite",
    usage,
  };
}
