/**
 * Runs the migrations listed in migrations/index.ts, one file each, and
 * reads where a database stands against them.
 */
import { setTimeout as delay } from "node:timers/promises";
import {
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely";
import { Refusal } from "../refusal.ts";
import type { Engine } from "./connection.ts";
import { MIGRATIONS } from "./migrations/index.ts";
import type { AnyDb } from "./migrations/shared.ts";

class ListedMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, migration]) => [
        name,
        { up: (db: AnyDb) => migration.up(db, this.engine) },
      ]),
    );
  }
}

async function currentSchema(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("PostgreSQL has no current schema: check the search_path");
  return schema;
}

/** PostgreSQL's "schema does not exist", "relation does not exist" and "column does not exist". */
const DROPPED_UNDER_US = new Set(["3F000", "42P01", "42703"]);

/**
 * Kysely looks for its own tables with a catalogue query over every schema
 * of the database (has_schema_privilege on each, then each table's columns).
 * Another site dropping its schema, or a table or column in it, at that
 * moment fails the query for a schema, table or column that is not ours.
 * Only an error outside every migration is taken for this. The next attempt
 * waits a little longer each time, so a drop still under way can commit
 * first. (The tests met all three: each now has a database of its own,
 * test/support/engines.ts.)
 */
const SCHEMA_RACE_ATTEMPTS = 8;
const SCHEMA_RACE_PAUSE_MS = 25;

function isSchemaRace(error: unknown): boolean {
  return DROPPED_UNDER_US.has(String((error as { code?: unknown } | undefined)?.code));
}

/** The names of the migrations this code knows, oldest first: the last is its schema version. */
export function knownMigrations(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

/** Where the database stands against the migrations this version of the code knows. */
export interface SchemaStatus {
  /** Known migrations already applied, oldest first, with when. */
  applied: { name: string; executedAt: Date }[];
  /** Known migrations not applied yet, in the order they will run. */
  pending: string[];
  /** Applied migrations this version does not know: a newer version migrated the database. */
  unknown: string[];
}

/** The database was migrated by a newer version of the site than this one. */
export class NewerSchemaError extends Refusal {
  constructor(readonly unknown: readonly string[]) {
    super(
      `This database was migrated by a newer version of the site (${unknown.join(", ")}, ` +
        "which this version does not know), so this version will not use it. " +
        "Run the newer version, or go back by restoring the backup taken before the upgrade.",
    );
  }
}

/** Reads the schema's state without changing anything. */
export async function schemaStatus(db: AnyDb, engine: Engine): Promise<SchemaStatus> {
  const migrator = await migratorFor(db, engine);
  const known = await migrator.getMigrations();
  const knownNames = new Set(known.map((migration) => migration.name));
  const recorded = (await hasMigrationTable(db, engine))
    ? await db.selectFrom(MIGRATION_TABLE).select("name").orderBy("name").execute()
    : [];
  return {
    applied: known.flatMap(({ name, executedAt }) => (executedAt ? [{ name, executedAt }] : [])),
    pending: known.filter((migration) => !migration.executedAt).map(({ name }) => name),
    unknown: recorded.map(({ name }) => String(name)).filter((name) => !knownNames.has(name)),
  };
}

/**
 * Brings the schema up to date; safe to run from several processes at once.
 * Refuses a database a newer version has migrated: its newer tables and
 * columns would be half used, and going back is a restore, not a guess.
 */
export async function migrateToLatest(db: AnyDb, engine: Engine): Promise<void> {
  const { unknown } = await schemaStatus(db, engine);
  if (unknown.length > 0) throw new NewerSchemaError(unknown);
  return migrate(db, engine, (migrator) => migrator.migrateToLatest());
}

/**
 * Brings the schema up to the named migration and no further: a test of a
 * later migration starts from a database as the one before it left it.
 */
export function migrateUpTo(db: AnyDb, engine: Engine, name: string): Promise<void> {
  return migrate(db, engine, (migrator) => migrator.migrateTo(name));
}

/** Kysely's own record of the migrations it ran. */
const MIGRATION_TABLE = "kysely_migration";

/** Whether Kysely's record exists here (in the current schema on PostgreSQL). */
async function hasMigrationTable(db: AnyDb, engine: Engine): Promise<boolean> {
  const { rows } =
    engine === "postgres"
      ? await sql<{ found: unknown }>`select to_regclass(${MIGRATION_TABLE}) as found`.execute(db)
      : await sql<{
          found: unknown;
        }>`select name as found from sqlite_master where type = 'table' and name = ${MIGRATION_TABLE}`.execute(
          db,
        );
  return rows[0]?.found != null;
}

async function migratorFor(db: AnyDb, engine: Engine): Promise<Migrator> {
  return new Migrator({
    db,
    provider: new ListedMigrationProvider(engine),
    migrationTableName: MIGRATION_TABLE,
    // Kysely looks for its own tables in every schema unless told which: a
    // second site (or test) in another schema of the same database would
    // otherwise make it skip creating them in this one.
    ...(engine === "postgres" ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
}

async function migrate(
  db: AnyDb,
  engine: Engine,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<void> {
  const migrator = await migratorFor(db, engine);
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await run(migrator);
    const failed = results?.find((r) => r.status === "Error");
    if (!error && !failed) return;
    if (!failed && isSchemaRace(error) && attempt < SCHEMA_RACE_ATTEMPTS) {
      await delay(SCHEMA_RACE_PAUSE_MS * attempt);
      continue;
    }
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed`, { cause: error });
  }
}
