/**
 * The `backups` table: one row per backup, written when it starts and
 * completed when it ends. A scheduled backup is claimed by the insert of
 * its slot, which the unique column lets one instance make: the others'
 * inserts do nothing and return no row. A backup asked for in the console
 * holds the slot CONSOLE_SLOT the same way while it runs, and lets go of
 * it when it ends, so only one such backup runs at a time.
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

/** The slot a backup asked for in the console holds while it runs. */
export const CONSOLE_SLOT = "console";

/** Why a console backup's row was closed by the next one asked for, long after it began. */
export const STOPPED_REASON =
  "The server stopped before this backup was done; no archive was written.";

/**
 * Claims the console's slot for a backup asked for now: the row's id, or
 * null while another holds it. A claim older than `staleBefore` belonged
 * to a process that stopped mid-backup (a running one lets go when it
 * ends): it is closed as failed first, so it does not block every later one.
 */
export async function claimConsoleBackup(
  db: Db,
  at: string,
  staleBefore: string,
): Promise<number | null> {
  await db
    .updateTable("backups")
    .set({ slot: null, finished_at: at, result: "failed", reason: STOPPED_REASON })
    .where("slot", "=", CONSOLE_SLOT)
    .where("started_at", "<", staleBefore)
    .execute();
  const row = await db
    .insertInto("backups")
    .values({ trigger: "command", slot: CONSOLE_SLOT, started_at: at })
    .onConflict((conflict) => conflict.column("slot").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Whether a backup asked for in the console holds its slot. */
export async function consoleBackupRunning(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom("backups")
    .select("id")
    .where("slot", "=", CONSOLE_SLOT)
    .executeTakeFirst();
  return row !== undefined;
}

/** A backup whose archive was written, with its file name; undefined for any other. */
export async function archivedBackup(
  db: Db,
  id: number,
): Promise<{ id: number; file: string } | undefined> {
  const row = await db
    .selectFrom("backups")
    .select(["id", "file"])
    .where("id", "=", id)
    .where("result", "=", "ok")
    .where("file", "is not", null)
    .executeTakeFirst();
  return row?.file ? { id: row.id, file: row.file } : undefined;
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
  /** The backup held the console's slot, which the next one may now take. */
  releasesSlot?: boolean;
}

export async function finishBackup(db: Db, id: number, outcome: BackupOutcome): Promise<void> {
  await db
    .updateTable("backups")
    .set({
      ...(outcome.releasesSlot ? { slot: null } : {}),
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
