/**
 * `npm run backup -- [--out FILE]`: writes one archive of the site's data
 * (a consistent copy of the database taken while the site runs, the media
 * and the mail folders, and a manifest with every file's checksum) to
 * FILE, or to BACKUP_DIR as backup-<UTC time>.tar.gz. Reads the database
 * the server is configured for and never migrates it; the backup is
 * recorded in its `backups` table (ADR 046).
 */
import { join } from "node:path";
import { archiveName, commandBackup, failureReason } from "../features/backups/index.ts";
import { openDatabase } from "../platform/db/connection.ts";
import { processConfig } from "../settings.ts";
import { commandLine, runCommand } from "./command-line.ts";

const USAGE = `Usage: npm run backup -- [--out FILE]

Writes one archive (.tar.gz) of the database, MEDIA_DIR and MAILBOX_DIR,
with a manifest of checksums, while the site keeps running. Without --out
it goes to BACKUP_DIR (default data/backups) as backup-<UTC time>.tar.gz.
Restore it with: npm run restore -- FILE`;

async function main() {
  const { values } = commandLine(USAGE, { options: { out: { type: "string" } } });
  const config = processConfig();
  // Not read-only: the backup is recorded in the database's own list.
  // Opening a SQLite path that holds nothing would create a database there.
  const database = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: config.SQLITE_FILE,
    mustExist: true,
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

runCommand(main, (error) => `The backup failed: ${failureReason(error)}`);
