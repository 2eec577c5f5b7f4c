/**
 * `npm run content:import -- --from content/`: loads or updates the site's
 * content from JSON files in the seed's format (features/content/import.ts). Safe to
 * run again: records that match the files are left alone. On PostgreSQL the
 * running servers show the change at once (the content change feed); a
 * server on SQLite shows it after its next start.
 */
import { parseArgs } from "node:util";
import {
  type ChangeFeed,
  importContent,
  listenForChanges,
  SiteContent,
  SOLO_FEED,
} from "../features/content/index.ts";
import { ConfigError, loadConfig } from "../platform/config.ts";
import { openDatabase } from "../platform/db/connection.ts";
import { migrateToLatest } from "../platform/db/migrations.ts";

const USAGE = "Usage: npm run content:import -- --from content/";

async function main() {
  const { values } = parseArgs({ options: { from: { type: "string" } } });
  if (!values.from) throw new ConfigError(USAGE);
  const config = loadConfig();
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
    const report = await importContent(new SiteContent(database, feed), values.from);
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
