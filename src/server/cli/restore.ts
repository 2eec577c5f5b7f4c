/**
 * `npm run restore -- FILE [--force]`: restores an archive written by
 * `npm run backup` into the database, MEDIA_DIR and MAILBOX_DIR the server
 * is configured for. Every file's checksum is checked first; an archive
 * that is damaged, from a newer version of the site or of the other
 * engine is refused, and so is a place that already holds a site unless
 * --force is given (ADR 046). The database is not migrated: the server
 * does that when it starts.
 */
import { parseArgs } from "node:util";
import { cliFailure, restoreArchive } from "../features/backups/index.ts";
import { ConfigError, loadConfig } from "../platform/config.ts";

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores an archive written by npm run backup into the database
(DATABASE_URL or SQLITE_FILE), MEDIA_DIR and MAILBOX_DIR, after checking
every file against the archive's manifest. A database or folder that
already holds a site is replaced only with --force: stop the site first.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0) throw new ConfigError(USAGE);
  const config = loadConfig();
  const manifest = await restoreArchive(config, file, { force: values.force === true });
  console.log(
    `Restored ${file}: the ${manifest.engine} database as of ${manifest.createdAt} (schema ${manifest.schemaVersion}) and ${manifest.files.length} files. Start the site to bring its schema up to date.`,
  );
}

main().catch((error: unknown) => {
  console.error(cliFailure(error, USAGE, "restore"));
  process.exit(1);
});
