/**
 * `npm run db:status`: the migrations this version knows, which of them the
 * configured database has applied and when, and which are pending (the next
 * start applies them). Reads only; a database migrated by a newer version is
 * named as such. Exits 0 when the database is up to date, 2 when migrations
 * are pending, 1 when a newer version migrated it.
 */
import { openDatabase } from "../platform/db/connection.ts";
import { NewerSchemaError, schemaStatus } from "../platform/db/migrations.ts";
import { processConfig } from "../settings.ts";
import { commandLine, runCommand } from "./command-line.ts";

const USAGE = `Usage: npm run db:status

Lists the applied and pending migrations of the database the site is
configured for (DATABASE_URL, else SQLITE_FILE). Changes nothing.
Exit status: 0 up to date, 2 migrations pending, 1 migrated by a newer version.`;

async function main(): Promise<void> {
  commandLine(USAGE, { options: {} });
  const config = processConfig();
  const { db, engine } = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
    readOnly: true,
  });
  try {
    const status = await schemaStatus(db, engine);
    console.log(
      `Database: ${engine === "postgres" ? "PostgreSQL" : `SQLite, ${config.SQLITE_FILE}`}`,
    );
    for (const { name, executedAt } of status.applied) {
      console.log(`applied  ${name}  ${executedAt.toISOString()}`);
    }
    for (const name of status.pending) console.log(`pending  ${name}`);
    for (const name of status.unknown) console.log(`unknown  ${name}`);
    if (status.unknown.length > 0) {
      console.log(new NewerSchemaError(status.unknown).message);
      process.exitCode = 1;
      return;
    }
    console.log(
      status.pending.length === 0
        ? `Up to date: ${status.applied.length} migrations applied.`
        : `${status.pending.length} pending: the next start of the site applies them.`,
    );
    process.exitCode = status.pending.length === 0 ? 0 : 2;
  } finally {
    await db.destroy();
  }
}

runCommand(main);
