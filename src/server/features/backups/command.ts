/**
 * A backup asked for by a person, with `npm run backup` or "Back up now" in
 * the console: recorded in the `backups` table like a scheduled one, when
 * the database has the table (a database whose schema predates it is
 * backed up all the same by the command, without a record: the command
 * never migrates).
 */
import { basename } from "node:path";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { type BackupConfig, type TakenBackup, takeBackup } from "./backup.ts";
import { schemaVersionOf } from "./database-copy.ts";
import { failureReason } from "./refusal.ts";
import { finishBackup, startCommandBackup } from "./rows.ts";

/** The migration that made the `backups` table. */
const BACKUPS_MIGRATION = "025_backups";

export interface RecordedBackup {
  out: string;
  now: () => number;
  /** The row recording it, or null for none. */
  recordId: number | null;
  /** The row holds the console's slot, let go of when the backup ends. */
  releasesSlot?: boolean;
}

/** Takes a backup into `out` and completes its row with how it went; a failure is rethrown. */
export async function takeRecordedBackup(
  database: DatabaseHandle,
  config: BackupConfig,
  { out, now, recordId, releasesSlot = false }: RecordedBackup,
): Promise<TakenBackup> {
  const { db } = database;
  const iso = () => new Date(now()).toISOString();
  try {
    const taken = await takeBackup({ config, ...database }, { out, recordId, now });
    if (recordId !== null) {
      await finishBackup(db, recordId, {
        at: iso(),
        result: "ok",
        file: basename(out),
        size: taken.size,
        releasesSlot,
      });
    }
    return taken;
  } catch (error) {
    if (recordId !== null) {
      await finishBackup(db, recordId, {
        at: iso(),
        result: "failed",
        reason: failureReason(error),
        releasesSlot,
      });
    }
    throw error;
  }
}

export async function commandBackup(
  database: DatabaseHandle,
  config: BackupConfig,
  { out, now }: { out: string; now: () => number },
): Promise<TakenBackup> {
  const { db } = database;
  const schema = await schemaVersionOf(db, database.engine);
  const recordId =
    schema !== null && schema >= BACKUPS_MIGRATION
      ? await startCommandBackup(db, new Date(now()).toISOString())
      : null;
  return takeRecordedBackup(database, config, { out, now, recordId });
}
