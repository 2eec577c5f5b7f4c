/**
 * Backups (ADR 046): one archive of the database, the media and the mail,
 * taken by `npm run backup` or on the server's schedule, restored by
 * `npm run restore`; each recorded in the `backups` table, which owners see
 * in the console. What the rest of the server and the CLIs may use of this
 * feature is exported here.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { tighten } from "../../platform/security/owner-only.ts";
import type { MailDefaultSettings } from "../mail-settings/index.ts";
import backupRoutes from "./console.ts";
import { lastBackupResult, lastSuccessAt } from "./rows.ts";
import { BackupScheduler } from "./scheduler.ts";
import type { BackupsSettings } from "./server-settings.ts";

export default fp(
  async function backups(
    app: FastifyInstance,
    options: AdminAreaOptions<BackupsSettings & MailDefaultSettings> & {
      now?: (() => number) | undefined;
    },
  ) {
    const { config, database, now } = options;
    // Archives hold the whole database: a folder of them made looser before is made owner-only.
    tighten(config.BACKUP_DIR);
    await app.register(backupRoutes, { config, database, now: now ?? Date.now });
    // Read at each scrape: an alert fires when this grows older than the
    // schedule allows, or stays 0 while the server is to take backups.
    app.metrics.gauge({
      name: "site_backup_last_success_timestamp_seconds",
      help: "When the last backup that succeeded finished (Unix time); 0 before the first.",
      read: async () => {
        const finished = await lastSuccessAt(database.db);
        return [{ value: finished ? Date.parse(finished) / 1000 : 0 }];
      },
    });
    app.metrics.gauge({
      name: "site_backup_schedule_seconds",
      help: "How often the server takes a backup by itself (BACKUP_EVERY_HOURS, in seconds); 0 when it takes none.",
      read: async () => [{ value: config.BACKUP_EVERY_HOURS * 3600 }],
    });
    app.metrics.gauge({
      name: "site_backup_last_failed",
      help: "1 when the last backup that finished failed, 0 when it succeeded; absent before the first.",
      read: async () => {
        const last = await lastBackupResult(database.db);
        return last ? [{ value: last.result === "failed" ? 1 : 0 }] : [];
      },
    });
    if (config.BACKUP_EVERY_HOURS === 0) return;
    const scheduler = new BackupScheduler({
      config,
      database,
      log: app.log,
      withOutbox: (work) => app.withOutbox(work),
      now: now ?? Date.now,
    });
    app.addHook("onReady", async () => scheduler.start());
    app.addHook("onClose", async () => scheduler.stop());
  },
  { name: "backups", dependencies: ["console", "outbox", "mail-settings", "metrics"] },
);

export { DATABASE_FILES } from "./archive.ts";
export {
  archiveName,
  type BackupConfig,
  restoreArchive,
  SITE_RUNNING_REFUSAL,
  takeBackup,
} from "./backup.ts";
export { commandBackup } from "./command.ts";
export { pgDumpRefusal } from "./database-copy.ts";
export { BackupRefusal, failureReason } from "./refusal.ts";
export { type BackupRecord, lastBackupResult } from "./rows.ts";
export { pruneArchives, runScheduledBackup, slotOf } from "./scheduler.ts";
