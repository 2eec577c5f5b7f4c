/**
 * `npm run content:import -- --from content/`: loads or updates the site's
 * content from JSON files in the seed's format (features/content/import.ts). Safe to
 * run again: records that match the files are left alone. On PostgreSQL the
 * running servers show the change at once (the content change feed); a
 * server on SQLite shows it after its next start. It writes, so it brings
 * the database's schema up to date first, as the server does at start (ADR 048).
 */
import {
  type ChangeFeed,
  importContent,
  listenForChanges,
  SiteContent,
  SOLO_FEED,
} from "../features/content/index.ts";
import { openDatabase } from "../platform/db/connection.ts";
import { migrateToLatest } from "../platform/db/migrations.ts";
import { processConfig } from "../settings.ts";
import { commandLine, Refusal, runCommand } from "./command-line.ts";

const USAGE = `Usage: npm run content:import -- --from content/

Loads or updates the site's content from the JSON files in the folder, in the
seed's format; records that match the files are left alone.`;

async function main() {
  const { values } = commandLine(USAGE, { options: { from: { type: "string" } } });
  if (!values.from) throw new Refusal(`--from is missing.\n${USAGE}`);
  const config = processConfig();
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  let feed: ChangeFeed = SOLO_FEED;
  try {
    await migrateToLatest(database.db, database.engine);
    if (config.DATABASE_URL) {
      feed = await listenForChanges(config.DATABASE_URL, () => {}, console);
    }
    // A file that is missing or wrong is the person's to fix: its message is enough.
    const report = await importContent(new SiteContent(database, feed), values.from).catch(
      (error: unknown) => {
        throw new Refusal(error instanceof Error ? error.message : String(error));
      },
    );
    for (const label of report.created) console.log(`added    ${label}`);
    for (const label of report.updated) console.log(`updated  ${label}`);
    console.log(
      `${report.created.length} added, ${report.updated.length} updated, ${report.unchanged} unchanged.`,
    );
    if (database.engine === "sqlite" && report.created.length + report.updated.length > 0) {
      console.log(
        "A server already running on this SQLite file shows the changes after a restart.",
      );
    }
  } finally {
    await feed.close();
    await database.db.destroy();
  }
}

runCommand(main);
