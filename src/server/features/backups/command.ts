/**
 * A backup asked for by a person (`npm run backup`): recorded in the
 * `backups` table like a scheduled one, when the database has the table
 * (a database whose schema predates it is backed up all the same, without
 * a record: the command never migrates).
 */
import { basename } from "node:path";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { type BackupConfig, type TakenBackup, takeBackup } from "./backup.ts";
import { schemaVersionOf } from "./database-copy.ts";
import { failureReason } from "./refusal.ts";
import { finishBackup, startCommandBackup } from "./rows.ts";

/** The migration that made the `backups` table. */
const BACKUPS_MIGRATION = "025_backups";

export async function commandBackup(
  database: DatabaseHandle,
  config: BackupConfig,
  { out, now }: { out: string; now: () => number },
): Promise<TakenBackup> {
  const { db } = database;
  const iso = () => new Date(now()).toISOString();
  const schema = await schemaVersionOf(db, database.engine);
  const recordId =
    schema !== null && schema >= BACKUPS_MIGRATION ? await startCommandBackup(db, iso()) : null;
  try {
    const taken = await takeBackup({ config, ...database }, { out, recordId, now });
    if (recordId !== null) {
      await finishBackup(db, recordId, {
        at: iso(),
        result: "ok",
        file: basename(out),
        size: taken.size,
      });
    }
    return taken;
  } catch (error) {
    if (recordId !== null) {
      await finishBackup(db, recordId, {
        at: iso(),
        result: "failed",
        reason: failureReason(error),
      });
    }
    throw error;
  }
}
