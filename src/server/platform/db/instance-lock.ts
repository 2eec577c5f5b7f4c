/**
 * The lock every running instance of the site holds on its database, and
 * that a program which must have the database to itself (a restore) takes
 * alone (ADR 064). Instances share it; the sole holder excludes them all.
 * It belongs to the holding process's operating-system resources, so an
 * instance that dies, even by SIGKILL, leaves no lock behind:
 *
 * PostgreSQL: a session-level advisory lock on a connection of its own,
 * outside the pool (a pooled connection is closed and replaced at the
 * pool's will, and the lock would go with it). The server ends a session
 * whose process is gone, and its locks with it.
 *
 * SQLite: a read transaction kept open on a small SQLite file beside the
 * database (`<file>-instances`, owner-only), which holds SQLite's shared
 * file lock; the sole holder begins an exclusive transaction there. The
 * kernel drops a process's file locks when it exits. The database file
 * itself cannot carry the lock: a restore replaces it.
 */
import { dirname } from "node:path";
import pg from "pg";
import { Refusal } from "../refusal.ts";
import { ownerOnlyFile, ownerOnlyFolder } from "../security/owner-only.ts";
import { sqliteDriver } from "./sqlite-driver.ts";

/** Beside the SQLite database file: the file whose locks say who runs on it. */
export const INSTANCES_FILE_SUFFIX = "-instances";

/** Hashed with the schema's name: two sites in one PostgreSQL database do not share a lock. */
const ADVISORY_KEY_PREFIX = "site.instances:";

export interface LockPlace {
  databaseUrl?: string | undefined;
  sqliteFile: string;
}

export interface HeldLock {
  release(): Promise<void>;
}

/** Where the loss of an instance's PostgreSQL lock connection is reported. */
export interface LockLog {
  warn(details: { code: string | undefined; message: string }, message: string): void;
}

export const INSTANCE_LOCK_LOST_MESSAGE =
  "the database connection holding this instance's lock was lost: a restore is no longer kept out while it runs; restart the instance";

/** Starting while a restore has the database to itself is refused. */
export class DatabaseInUseRefusal extends Refusal {
  constructor() {
    super(
      "The database is being restored (npm run restore has it to itself): start the site again when the restore has finished.",
    );
  }
}

/** Held by a running instance beside the others; refused while a sole holder has it. */
export async function holdInstanceLock(place: LockPlace, log: LockLog): Promise<HeldLock> {
  const held = await take(place, "shared", log);
  if (!held) throw new DatabaseInUseRefusal();
  return held;
}

/** The lock alone, or null while any instance holds its share. */
export async function takeSoleLock(place: LockPlace): Promise<HeldLock | null> {
  return take(place, "sole", null);
}

const NOTHING_TO_RELEASE: HeldLock = { release: async () => {} };

async function take(
  place: LockPlace,
  mode: "shared" | "sole",
  log: LockLog | null,
): Promise<HeldLock | null> {
  if (place.databaseUrl) return takeAdvisory(place.databaseUrl, mode, log);
  // A database in memory belongs to its one process: nobody else can reach it.
  if (place.sqliteFile === ":memory:") return NOTHING_TO_RELEASE;
  return takeSqliteFileLock(place.sqliteFile, mode);
}

async function takeAdvisory(
  url: string,
  mode: "shared" | "sole",
  log: LockLog | null,
): Promise<HeldLock | null> {
  const client = new pg.Client({ connectionString: url });
  let ending = false;
  const end = async () => {
    ending = true;
    // Ending the session ends its locks.
    await client.end();
  };
  // Without a listener a lost connection would end the process. A session
  // ended by the server errs twice (its notice, then the closed socket):
  // the loss is said once.
  let lost = false;
  client.on("error", (error: Error & { code?: string }) => {
    if (ending || lost) return;
    lost = true;
    log?.warn({ code: error.code, message: error.message }, INSTANCE_LOCK_LOST_MESSAGE);
  });
  await client.connect();
  let taken = false;
  try {
    const attempt =
      mode === "shared"
        ? "select pg_try_advisory_lock_shared(hashtext($1 || current_schema())) as taken"
        : "select pg_try_advisory_lock(hashtext($1 || current_schema())) as taken";
    const { rows } = await client.query<{ taken: boolean }>(attempt, [ADVISORY_KEY_PREFIX]);
    taken = rows[0]?.taken === true;
  } finally {
    if (!taken) await end();
  }
  return taken ? { release: end } : null;
}

function takeSqliteFileLock(file: string, mode: "shared" | "sole"): HeldLock | null {
  const lockFile = `${file}${INSTANCES_FILE_SUFFIX}`;
  ownerOnlyFolder(dirname(lockFile));
  ownerOnlyFile(lockFile);
  const SQLite = sqliteDriver();
  const sqlite = new SQLite(lockFile);
  // Asking is enough: waiting would only delay the same answer.
  sqlite.pragma("busy_timeout = 0");
  try {
    if (mode === "shared") {
      sqlite.exec("begin");
      // A deferred transaction takes its shared lock at its first read.
      sqlite.prepare("select count(*) from sqlite_master").get();
    } else {
      sqlite.exec("begin exclusive");
    }
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") return null;
    throw error;
  }
  return {
    release: async () => {
      sqlite.exec("rollback");
      sqlite.close();
    },
  };
}
