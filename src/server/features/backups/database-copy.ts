/**
 * The database's part of a backup: a consistent copy taken while the site
 * runs and writes, and putting one back (ADR 046).
 *
 * SQLite: `VACUUM INTO` on a read-only connection of its own copies one
 * read transaction's snapshot into a new file. Copying `site.db` would miss
 * what is still in `site.db-wal`, and the online backup API, fed from
 * another connection, starts over at every write the site makes meanwhile.
 *
 * PostgreSQL: Debian's `pg_dump` (custom format, the site's schema only),
 * which reads everything in one snapshot; it must be at least as new as
 * the server, else it refuses to dump. Restored with `pg_restore` in one
 * transaction.
 */
import { execFile } from "node:child_process";
import { chmod, copyFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Kysely, sql } from "kysely";
import type { Engine } from "../../platform/db/connection.ts";
import { knownMigrations } from "../../platform/db/migrations.ts";
import type { Database } from "../../platform/db/schema.ts";
import { sqliteDriver } from "../../platform/db/sqlite-driver.ts";
import { registerTextFold } from "../../platform/db/text-search.ts";
import { OWNER_ONLY_FILE } from "../../platform/security/owner-only.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { DATABASE_FILES } from "./archive.ts";
import { BackupRefusal } from "./refusal.ts";

const run = promisify(execFile);

/** Debian's PostgreSQL client programs (postgresql-client); its wrapper runs the newest installed. */
const PG_DUMP = "/usr/bin/pg_dump";
const PG_RESTORE = "/usr/bin/pg_restore";
/** A dump is held in memory only as its messages; the data goes to a file. */
const TOOL_OUTPUT_BYTES = 16 * 1024 * 1024;

const MIGRATIONS_TABLE = "kysely_migration";

/** The name of the last migration applied to a database, or null for one never set up. */
export async function schemaVersionOf(
  db: Kysely<Database>,
  engine: Engine,
): Promise<string | null> {
  const exists =
    engine === "postgres"
      ? sql<{ found: string | null }>`select to_regclass(${MIGRATIONS_TABLE}) as found`
      : sql<{
          found: string | null;
        }>`select name as found from sqlite_master where type = 'table' and name = ${MIGRATIONS_TABLE}`;
  const { rows } = await exists.execute(db);
  if (!rows[0]?.found) return null;
  const latest = await sql<{
    name: string;
  }>`select name from ${sql.table(MIGRATIONS_TABLE)} order by name desc limit 1`.execute(db);
  return latest.rows[0]?.name ?? null;
}

/** Refuses an archive whose schema this code does not know: it comes from a newer site. */
export function checkSchemaKnown(schemaVersion: string): void {
  const known = knownMigrations();
  if (known.includes(schemaVersion)) return;
  const latest = known.at(-1) ?? "none";
  throw new BackupRefusal(
    `This archive comes from a newer version of the site (database schema ${schemaVersion}; this version knows up to ${latest}): restore it with that version or a later one.`,
  );
}

/** The connection string without its password, which travels in PGPASSWORD instead of the process list. */
function pgArguments(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return {
    dbname: `--dbname=${url.toString()}`,
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** The tool's own last line, which says what went wrong (never the connection string). */
function toolFailure(tool: string, error: unknown): BackupRefusal {
  const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
  if ((error as NodeJS.ErrnoException).code === "ENOENT") {
    return new BackupRefusal(
      `${tool} is not installed: install Debian's postgresql-client package and try again.`,
    );
  }
  const line = stderr.split("\n").at(-1) || (error as Error).message;
  return new BackupRefusal(`${tool} failed: ${line}`);
}

/**
 * Why this pg_dump (its `--version` line) cannot dump this server
 * (`server_version_num`), or null when it can: one older than the server's
 * major version refuses to, or would miss what it does not know.
 */
export function pgDumpRefusal(dumpVersion: string, serverVersionNum: number): BackupRefusal | null {
  const dumpMajor = Number(/\)\s+(\d+)/.exec(dumpVersion)?.[1]);
  const serverMajor = Math.floor(serverVersionNum / 10_000);
  if (dumpMajor >= serverMajor) return null;
  return new BackupRefusal(
    `${PG_DUMP} is version ${dumpMajor || "unknown"}, older than the PostgreSQL server (${serverMajor}): install postgresql-client-${serverMajor} and try again.`,
  );
}

async function checkPgDumpVersion(db: Kysely<Database>): Promise<void> {
  let output: string;
  try {
    ({ stdout: output } = await run(PG_DUMP, ["--version"]));
  } catch (error) {
    throw toolFailure(PG_DUMP, error);
  }
  const { rows } = await sql<{
    version: string;
  }>`select current_setting('server_version_num') as version`.execute(db);
  const refusal = pgDumpRefusal(output, Number(rows[0]?.version));
  if (refusal) throw refusal;
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new BackupRefusal("The PostgreSQL connection has no schema to back up.");
  return schema;
}

export interface SnapshotSource {
  config: Pick<PlatformConfig, "DATABASE_URL" | "SQLITE_FILE">;
  db: Kysely<Database>;
  engine: Engine;
}

/**
 * Copies the database into `stage` at one moment; returns the schema
 * version the copy holds. Reads only: nothing in the database changes.
 */
export async function snapshotDatabase(
  { config, db, engine }: SnapshotSource,
  stage: string,
): Promise<string> {
  const target = join(stage, DATABASE_FILES[engine]);
  if (engine === "sqlite") return snapshotSqlite(config.SQLITE_FILE, target);
  if (!config.DATABASE_URL) throw new BackupRefusal("DATABASE_URL is not set.");
  await checkPgDumpVersion(db);
  const before = await schemaVersionOf(db, engine);
  if (!before) throw neverSetUp("The PostgreSQL database");
  const { dbname, env } = pgArguments(config.DATABASE_URL);
  try {
    await run(
      PG_DUMP,
      [
        "--format=custom",
        `--schema=${await currentSchema(db)}`,
        "--no-owner",
        "--no-privileges",
        `--file=${target}`,
        dbname,
      ],
      { env, maxBuffer: TOOL_OUTPUT_BYTES },
    );
  } catch (error) {
    throw toolFailure(PG_DUMP, error);
  }
  // A migration between the look and the dump would leave the manifest wrong.
  if ((await schemaVersionOf(db, engine)) !== before) {
    throw new BackupRefusal("The database was migrated during the backup: take it again.");
  }
  return before;
}

function neverSetUp(what: string): BackupRefusal {
  return new BackupRefusal(`${what} has never been set up (no migrations): nothing to back up.`);
}

async function snapshotSqlite(file: string, target: string): Promise<string> {
  try {
    await stat(file);
  } catch {
    throw new BackupRefusal(`There is no SQLite database at ${file}.`);
  }
  const SQLite = sqliteDriver();
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    // Rebuilding an index on the folded text calls the site's own function.
    registerTextFold(source);
    source.prepare("vacuum into ?").run(target);
  } finally {
    source.close();
  }
  const copy = new SQLite(target, { readonly: true });
  try {
    const row = copy
      .prepare(`select name from sqlite_master where type = 'table' and name = ?`)
      .get(MIGRATIONS_TABLE);
    const latest = row
      ? (copy.prepare(`select max(name) as name from ${MIGRATIONS_TABLE}`).get() as {
          name: string | null;
        })
      : undefined;
    if (!latest?.name) throw neverSetUp(`The SQLite database at ${file}`);
    return latest.name;
  } finally {
    copy.close();
  }
}

/**
 * Whether the place a restore writes to already holds a site: its
 * database has had its migrations run (every started site has, and has its
 * content seeded), or its media or mail folder holds files. A restore
 * there needs --force.
 */
export async function liveData(
  { config, db, engine }: SnapshotSource,
  folders: { media: string; mail: string },
  hasFiles: (dir: string) => Promise<boolean>,
): Promise<string | null> {
  const where =
    engine === "sqlite"
      ? `The SQLite database at ${config.SQLITE_FILE}`
      : "The PostgreSQL database";
  if (await schemaVersionOf(db, engine)) return `${where} already holds a site`;
  if (await hasFiles(folders.media)) return `The media folder ${folders.media} holds files`;
  if (await hasFiles(folders.mail)) return `The mail folder ${folders.mail} holds files`;
  return null;
}

/**
 * Puts the archive's database in place. SQLite: the copy replaces the
 * file and its WAL at once (by rename), so no half-restored file is ever
 * opened. PostgreSQL: pg_restore in one transaction, after removing what
 * is there with the dump's own objects (--clean) when forced.
 */
export async function restoreDatabase(
  { config, db, engine }: SnapshotSource,
  extracted: string,
  force: boolean,
): Promise<void> {
  const source = join(extracted, DATABASE_FILES[engine]);
  if (engine === "sqlite") {
    const file = config.SQLITE_FILE;
    const incoming = `${file}.restoring`;
    await copyFile(source, incoming);
    await chmod(incoming, OWNER_ONLY_FILE);
    for (const leftover of [`${file}-wal`, `${file}-shm`]) await rm(leftover, { force: true });
    await rename(incoming, file);
    return;
  }
  if (!config.DATABASE_URL) throw new BackupRefusal("DATABASE_URL is not set.");
  const { dbname, env } = pgArguments(config.DATABASE_URL);
  let contents: string;
  try {
    ({ stdout: contents } = await run(PG_RESTORE, ["--list", source], {
      maxBuffer: TOOL_OUTPUT_BYTES,
    }));
  } catch (error) {
    throw toolFailure(PG_RESTORE, error);
  }
  // The objects are restored into the schema they were dumped from, made
  // here when missing: the dump's own CREATE SCHEMA fails on one that
  // exists, as public always does, so it is left out of the list.
  const schemaLine = /^\d+; \d+ \d+ SCHEMA - (\S+) /m;
  const schema = schemaLine.exec(contents)?.[1];
  if (!schema) throw new BackupRefusal("The archive's PostgreSQL dump names no schema.");
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const list = join(extracted, "restore-list.txt");
  const lines = contents.split("\n").filter((line) => !schemaLine.test(line));
  await writeFile(list, lines.join("\n"));
  try {
    await run(
      PG_RESTORE,
      [
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-privileges",
        ...(force ? ["--clean", "--if-exists"] : []),
        `--use-list=${list}`,
        dbname,
        source,
      ],
      { env, maxBuffer: TOOL_OUTPUT_BYTES },
    );
  } catch (error) {
    throw toolFailure(PG_RESTORE, error);
  }
}
