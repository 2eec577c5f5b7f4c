/**
 * `npm run restore -- FILE [--force]`: restores an archive written by
 * `npm run backup` into the database, MEDIA_DIR and MAILBOX_DIR the server
 * is configured for. Every file's checksum is checked first; an archive
 * that is damaged, from a newer version of the site or of the other
 * engine is refused, and so is a place that already holds a site unless
 * --force is given (ADR 046). While any instance of the site runs on the
 * database the restore is refused, --force or not (ADR 064). The database
 * is not migrated: the server does that when it starts.
 */
import { failureReason, restoreArchive } from "../features/backups/index.ts";
import { processConfig } from "../settings.ts";
import { commandLine, Refusal, runCommand } from "./command-line.ts";

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores an archive written by npm run backup into the database
(DATABASE_URL or SQLITE_FILE), MEDIA_DIR and MAILBOX_DIR, after checking
every file against the archive's manifest. It is refused while any
instance of the site runs on the database: stop every instance first. A
database or folder that already holds a site is replaced only with --force.`;

async function main() {
  const { positionals, values } = commandLine(USAGE, {
    allowPositionals: true,
    options: { force: { type: "boolean" } },
  });
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0) throw new Refusal(USAGE);
  const config = processConfig();
  const manifest = await restoreArchive(config, file, { force: values.force === true });
  console.log(
    `Restored ${file}: the ${manifest.engine} database as of ${manifest.createdAt} (schema ${manifest.schemaVersion}) and ${manifest.files.length} files. Start the site to bring its schema up to date.`,
  );
}

runCommand(main, (error) => `The restore failed: ${failureReason(error)}`);
