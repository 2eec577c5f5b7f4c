/**
 * Backups the server takes by itself, every BACKUP_EVERY_HOURS (ADR 046).
 * Time is cut into periods of that length counted from 1970-01-01 00:00
 * UTC (every 6 hours: 00:00, 06:00, 12:00, 18:00 UTC); each period's backup
 * is taken once, by the instance whose insert of that slot into `backups`
 * goes through (the unique slot), at its first poll in the period. The
 * others' inserts do nothing, so several instances on one database take
 * one backup between them, and a restarted instance does not take the
 * period's again. After a good backup the archive is copied to S3 when a
 * bucket is set and the oldest archives beyond BACKUP_KEEP are removed; a
 * failed one is recorded with its reason and every owner is mailed.
 */
import { readdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { ownerAddresses } from "../../platform/console/users.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { PollingWorker } from "../../platform/ops/polling-worker.ts";
import { enqueueMail, type OutboxTransaction } from "../../platform/outbox/queue.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { currentMailSettings, type MailDefaultSettings } from "../mail-settings/index.ts";
import { archiveName, isArchiveName, takeBackup } from "./backup.ts";
import { BACKUP_FAILED_KIND, backupFailedMail } from "./mail.tsx";
import { failureReason } from "./refusal.ts";
import { claimSlot, finishBackup } from "./rows.ts";
import { copyToS3 } from "./s3.ts";
import type { BackupsSettings } from "./server-settings.ts";

const HOUR_MS = 3_600_000;
/** The longest sleep between looks: a clock moved, or a period missed while stopped, is seen this late at most. */
const POLL_CAP_MS = 5 * 60_000;

export interface ScheduleOptions {
  config: PlatformConfig & BackupsSettings & MailDefaultSettings;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Commits a change with the mail it queues, and wakes the sender. */
  withOutbox: <T>(work: (trx: OutboxTransaction) => Promise<T>) => Promise<T>;
  /** The clock the periods are cut by (epoch ms). */
  now: () => number;
}

/** The start of the period `at` falls in: the slot its backup is claimed by. */
export function slotOf(at: number, everyHours: number): string {
  const period = everyHours * HOUR_MS;
  return new Date(Math.floor(at / period) * period).toISOString();
}

/** Removes the oldest archives in the folder beyond the keep count. */
export async function pruneArchives(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter(isArchiveName).sort();
  const surplus = names.slice(0, Math.max(0, names.length - keep));
  for (const name of surplus) await rm(join(dir, name), { force: true });
  return surplus;
}

/**
 * Takes the backup of one slot unless another instance has: "elsewhere"
 * when it had, else whether this one succeeded.
 */
export async function runScheduledBackup(
  { config, database, log, withOutbox, now }: ScheduleOptions,
  slot: string,
): Promise<"elsewhere" | "ok" | "failed"> {
  const { db } = database;
  const startedAt = new Date(now()).toISOString();
  const id = await claimSlot(db, slot, startedAt);
  if (id === null) return "elsewhere";
  const out = join(config.BACKUP_DIR, archiveName(new Date(now())));
  let taken: { size: number } | null = null;
  try {
    taken = await takeBackup({ config, ...database }, { out, recordId: id, now });
    const copiedTo = await copyToS3(config, out);
    await finishBackup(db, id, {
      at: new Date(now()).toISOString(),
      result: "ok",
      file: basename(out),
      size: taken.size,
      copiedTo,
    });
    await pruneArchives(config.BACKUP_DIR, config.BACKUP_KEEP);
    log.info({ file: out, size: taken.size, copiedTo }, "scheduled backup taken");
    return "ok";
  } catch (error) {
    const reason = taken
      ? `the archive ${basename(out)} was written, but what follows it failed (the copy to S3 or the removal of old archives): ${failureReason(error)}`
      : failureReason(error);
    await withOutbox(async (trx) => {
      await finishBackup(trx, id, {
        at: new Date(now()).toISOString(),
        result: "failed",
        reason,
        file: taken ? basename(out) : null,
        size: taken?.size ?? null,
      });
      const settings = {
        from: (await currentMailSettings(trx, config)).from,
        publicOrigin: config.PUBLIC_ORIGIN,
      };
      for (const email of await ownerAddresses(trx)) {
        await enqueueMail(
          trx,
          BACKUP_FAILED_KIND,
          backupFailedMail(email, { startedAt, reason }, settings),
        );
      }
    });
    log.error({ err: error, slot }, "scheduled backup failed; the owners are mailed");
    return "failed";
  }
}

export class BackupScheduler extends PollingWorker {
  /** The last slot this instance settled (took, failed, or found taken). */
  private settled: string | null = null;

  constructor(private readonly options: ScheduleOptions) {
    super();
  }

  protected async round(): Promise<void> {
    const { config, log, now } = this.options;
    const slot = slotOf(now(), config.BACKUP_EVERY_HOURS);
    if (slot === this.settled) return;
    try {
      const outcome = await runScheduledBackup(this.options, slot);
      this.settled = slot;
      if (outcome === "elsewhere") log.info({ slot }, "scheduled backup taken by another instance");
    } catch (error) {
      log.error(
        { err: error, slot },
        "scheduled backup could not start; retrying on the next poll",
      );
    }
  }

  /** Until the next period begins, looking again at least every few minutes. */
  protected async sleepTime(): Promise<number> {
    const period = this.options.config.BACKUP_EVERY_HOURS * HOUR_MS;
    const untilNext = period - (this.options.now() % period);
    return Math.min(POLL_CAP_MS, untilNext);
  }
}
