/**
 * The `backups` table: one row per backup, written when it starts and
 * completed when it ends. A scheduled backup is claimed by the insert of
 * its slot, which the unique column lets one instance make: the others'
 * inserts do nothing and return no row.
 */
import type { Kysely, Selectable } from "kysely";
import type { BackupsTable, Database } from "../../platform/db/schema.ts";

type Db = Kysely<Database>;

/** Claims a scheduled slot; the row's id, or null when another instance took it first. */
export async function claimSlot(db: Db, slot: string, at: string): Promise<number | null> {
  const row = await db
    .insertInto("backups")
    .values({ trigger: "scheduled", slot, started_at: at })
    .onConflict((conflict) => conflict.column("slot").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Records a backup asked for by a person (`npm run backup`). */
export async function startCommandBackup(db: Db, at: string): Promise<number> {
  const row = await db
    .insertInto("backups")
    .values({ trigger: "command", slot: null, started_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface BackupOutcome {
  at: string;
  result: "ok" | "failed";
  reason?: string | null;
  file?: string | null;
  size?: number | null;
  copiedTo?: string | null;
}

export async function finishBackup(db: Db, id: number, outcome: BackupOutcome): Promise<void> {
  await db
    .updateTable("backups")
    .set({
      finished_at: outcome.at,
      result: outcome.result,
      reason: outcome.reason ?? null,
      file: outcome.file ?? null,
      size: outcome.size ?? null,
      copied_to: outcome.copiedTo ?? null,
    })
    .where("id", "=", id)
    .execute();
}

/**
 * A restored database holds the row of the backup it came from as it was
 * during that backup, unfinished: the archive completes it.
 */
export async function completeRestoredRecord(
  db: Db,
  id: number,
  archive: { at: string; file: string; size: number },
): Promise<void> {
  await db
    .updateTable("backups")
    .set({ finished_at: archive.at, result: "ok", file: archive.file, size: archive.size })
    .where("id", "=", id)
    .where("result", "is", null)
    .execute();
}

export interface BackupRecord {
  id: number;
  trigger: "scheduled" | "command";
  startedAt: string;
  finishedAt: string | null;
  result: "ok" | "failed" | null;
  reason: string | null;
  file: string | null;
  size: number | null;
  copiedTo: string | null;
}

function toRecord(row: Selectable<BackupsTable>): BackupRecord {
  return {
    id: row.id,
    trigger: row.trigger,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    result: row.result,
    reason: row.reason,
    file: row.file,
    size: row.size === null ? null : Number(row.size),
    copiedTo: row.copied_to,
  };
}

/** The most recent backups, newest first. */
export async function recentBackups(db: Db, limit: number): Promise<BackupRecord[]> {
  const rows = await db
    .selectFrom("backups")
    .selectAll()
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** The last backup that finished, scheduled or not (its result and reason), or null before the first. */
/** When the last backup that succeeded finished, or null before the first. */
export async function lastSuccessAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("backups")
    .select("finished_at")
    .where("result", "=", "ok")
    .orderBy("finished_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.finished_at ?? null;
}

export async function lastBackupResult(db: Db): Promise<BackupRecord | null> {
  const row = await db
    .selectFrom("backups")
    .selectAll()
    .where("finished_at", "is not", null)
    .orderBy("finished_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}
