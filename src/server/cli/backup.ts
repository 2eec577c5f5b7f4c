/**
 * `npm run backup -- [--out FILE]`: writes one archive of the site's data
 * (a consistent copy of the database taken while the site runs, the media
 * and the mail folders, and a manifest with every file's checksum) to
 * FILE, or to BACKUP_DIR as backup-<UTC time>.tar.gz. Reads the database
 * the server is configured for and never migrates it; the backup is
 * recorded in its `backups` table (ADR 046).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  archiveName,
  BackupRefusal,
  cliFailure,
  commandBackup,
} from "../features/backups/index.ts";
import { loadConfig } from "../platform/config.ts";
import { openDatabase } from "../platform/db/connection.ts";

const USAGE = `Usage: npm run backup -- [--out FILE]

Writes one archive (.tar.gz) of the database, MEDIA_DIR and MAILBOX_DIR,
with a manifest of checksums, while the site keeps running. Without --out
it goes to BACKUP_DIR (default data/backups) as backup-<UTC time>.tar.gz.
Restore it with: npm run restore -- FILE`;

async function main() {
  const { values } = parseArgs({
    options: { out: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  // Opening a SQLite path that holds nothing would create a database there.
  if (!config.DATABASE_URL && !existsSync(config.SQLITE_FILE)) {
    throw new BackupRefusal(`There is no SQLite database at ${config.SQLITE_FILE}.`);
  }
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
  });
  try {
    const out = values.out ?? join(config.BACKUP_DIR, archiveName(new Date()));
    const { file, size, manifest } = await commandBackup(database, config, { out, now: Date.now });
    console.log(
      `Backup written: ${file} (${size.toLocaleString("en-GB")} bytes, ${manifest.files.length} files, schema ${manifest.schemaVersion})`,
    );
  } finally {
    await database.db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(cliFailure(error, USAGE, "backup"));
  process.exit(1);
});
