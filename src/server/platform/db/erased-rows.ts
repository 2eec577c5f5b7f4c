/**
 * What a person's deleted rows leave on disk, removed once their erasure
 * has committed (ADR 067).
 *
 * SQLite: every connection has secure_delete on (sqlite-driver.ts), so a
 * delete overwrites the row's bytes with zeros in the pages it writes. The
 * write-ahead log still holds the pages as they were before, row and all:
 * a checkpoint copies the log into the file but leaves the log's bytes, and
 * a new commit only overwrites the log from its start. So the erasure ends
 * with a TRUNCATE checkpoint, which copies the log and cuts it to nothing.
 * It runs on the server's connection without waiting on a lock: should the
 * checkpoint worker or a backup be reading, it is tried again a few times,
 * and said in the log when it could not be done.
 *
 * PostgreSQL: a deleted row stays in its table's pages as a dead tuple until
 * a vacuum. The tables the erasure deleted from are vacuumed in the
 * background: on a large table a vacuum takes a while, and the answer does
 * not wait for it. A vacuum passes over a page another query is reading at
 * that instant (a foreign key's check of a later delete is enough) and
 * leaves its dead tuples, so a table the vacuum reports dead tuples left in
 * is vacuumed again, a few times. VACUUM FULL, which would also rewrite the pages' free
 * space, locks the table against every read meanwhile, so it is left to the
 * operator (docs/privacy/erasure.md).
 */
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql } from "kysely";
import { type DatabaseHandle, SQLITE_BUSY_TIMEOUT_MS } from "./connection.ts";
import type { Database } from "./schema.ts";

/** How often, and how far apart, a checkpoint kept from the log by a reader is tried. */
const TRUNCATE_ATTEMPTS = 20;
const TRUNCATE_RETRY_MS = 100;
/** How long, at most, a vacuum waits for the transactions older than the erasure: a minute. */
const OLDER_WAIT_MS = 200;
const OLDER_WAIT_ROUNDS = 300;
/** How often, and how far apart, a table a vacuum left dead tuples in is vacuumed again. */
const VACUUM_ATTEMPTS = 20;
const VACUUM_RETRY_MS = 500;

export const LOG_NOT_EMPTIED_MESSAGE =
  "SQLite's write-ahead log could not be emptied after an erasure, as a reader held it, and may still hold the erased rows: once the reader is done, run sqlite3 <SQLITE_FILE> 'pragma wal_checkpoint(truncate)'";
export const VACUUM_FAILED_MESSAGE = "the tables an erasure deleted from could not be vacuumed";
export const OLDER_TRANSACTIONS_MESSAGE =
  "transactions older than an erasure stayed open for a minute: the vacuum after it may leave the erased rows until the next";
export const DEAD_ROWS_LEFT_MESSAGE =
  "the vacuum after an erasure left deleted rows in tables other queries kept reading: the erased rows may stay until the next vacuum";
export const VACUUMED_MESSAGE = "the tables an erasure deleted from were vacuumed";

/** One TRUNCATE checkpoint that waits on no lock; whether it emptied the log. */
function truncateLog(db: Kysely<Database>): Promise<boolean> {
  // One connection throughout, so no other query runs while busy_timeout is 0.
  return db.connection().execute(async (connection) => {
    await sql`pragma busy_timeout = 0`.execute(connection);
    try {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(
        connection,
      );
      return rows[0]?.busy === 0;
    } finally {
      await sql`pragma busy_timeout = ${sql.lit(SQLITE_BUSY_TIMEOUT_MS)}`.execute(connection);
    }
  });
}

async function emptySqliteLog(db: Kysely<Database>, log: FastifyBaseLogger): Promise<void> {
  for (let attempt = 1; attempt <= TRUNCATE_ATTEMPTS; attempt += 1) {
    if (await truncateLog(db)) return;
    await delay(TRUNCATE_RETRY_MS);
  }
  log.warn(LOG_NOT_EMPTIED_MESSAGE);
}

/**
 * Whether another connection to this database still holds a snapshot or a
 * transaction as old as `mark`, an id taken after the erasure committed:
 * such a snapshot may have been taken before the commit, so a vacuum now
 * would have to keep the erased rows for it. A transaction that began after
 * the erasure can hold one too (its snapshot keeps the oldest transaction
 * running when it began), so the start times alone do not tell.
 */
async function olderSnapshotsOpen(db: Kysely<Database>, mark: string): Promise<boolean> {
  const { rows } = await sql<{ open: boolean }>`
    select exists (
      select 1 from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (age(backend_xmin) >= age(${mark}::xid) or age(backend_xid) >= age(${mark}::xid))
    ) as open`.execute(db);
  return rows[0]?.open === true;
}

/**
 * Of `tables`, those the last vacuum or a later delete left dead tuples in,
 * as the statistics tell: besides the ones a vacuum passed over, these may
 * be rows another query deleted since, which a vacuum more does no harm to.
 */
async function tablesWithDeadTuples(
  db: Kysely<Database>,
  tables: readonly (keyof Database)[],
): Promise<(keyof Database)[]> {
  const { rows } = await sql<{ name: keyof Database }>`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and n_dead_tup > 0
      and relname in (${sql.join(tables)})`.execute(db);
  return rows.map((row) => row.name);
}

/** Vacuums `tables` until none is left with dead tuples, or VACUUM_ATTEMPTS are spent. */
async function vacuumUntilClean(
  db: Kysely<Database>,
  tables: readonly (keyof Database)[],
  log: FastifyBaseLogger,
): Promise<void> {
  let left = tables;
  for (let attempt = 1; attempt <= VACUUM_ATTEMPTS; attempt += 1) {
    if (attempt > 1) await delay(VACUUM_RETRY_MS);
    await sql`vacuum ${sql.join(left.map((table) => sql.table(table)))}`.execute(db);
    left = await tablesWithDeadTuples(db, left);
    if (left.length === 0) {
      log.info({ tables }, VACUUMED_MESSAGE);
      return;
    }
  }
  log.warn({ tables: left }, DEAD_ROWS_LEFT_MESSAGE);
}

/**
 * Vacuums `tables` once no other connection can still see the erased rows:
 * a vacuum keeps a dead tuple that an open snapshot could still see, so
 * running at once it would leave the erased rows whenever the mail sender or
 * a reader happened to be mid-transaction. After OLDER_WAIT_ROUNDS it
 * vacuums anyway, and says so.
 */
async function vacuumWhenUnseen(
  db: Kysely<Database>,
  tables: readonly (keyof Database)[],
  log: FastifyBaseLogger,
): Promise<void> {
  // A new transaction id, later than the erasure's: it commits at once.
  const { rows } = await sql<{
    mark: string;
  }>`select pg_current_xact_id()::xid::text as mark`.execute(db);
  const mark = rows[0]?.mark;
  if (!mark) throw new Error("PostgreSQL answered no transaction id");
  let rounds = 0;
  while (await olderSnapshotsOpen(db, mark)) {
    rounds += 1;
    if (rounds > OLDER_WAIT_ROUNDS) {
      log.warn({ tables }, OLDER_TRANSACTIONS_MESSAGE);
      break;
    }
    await delay(OLDER_WAIT_MS);
  }
  await vacuumUntilClean(db, tables, log);
}

/**
 * Called once a person's erasure, which deleted from `tables`, has
 * committed: empties SQLite's log, or starts PostgreSQL's vacuum of those
 * tables.
 */
export async function forgetErasedRows(
  { db, engine }: DatabaseHandle,
  tables: readonly (keyof Database)[],
  log: FastifyBaseLogger,
): Promise<void> {
  if (engine === "sqlite") await emptySqliteLog(db, log);
  else
    vacuumWhenUnseen(db, tables, log).catch((error: unknown) =>
      log.error({ err: error, tables }, VACUUM_FAILED_MESSAGE),
    );
}
