/**
 * The console's Backups page (owners only): the schedule in force and the
 * latest backups; "Back up now", which answers at once and takes the
 * backup after the answer; and each archive downloaded, read from the
 * backup folder under the name its row records, never one the request
 * gives.
 */
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { basename, join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  BACKUP_ARCHIVE_PATH,
  BACKUP_TEXTS,
  BACKUPS_LISTED,
  BACKUPS_PATH,
  backupArchiveParamsSchema,
  backupStartedSchema,
  backupsAnswerSchema,
} from "../../../shared/admin/backups.ts";
import { messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { refuse } from "../../platform/refusal.ts";
import { archiveName, isArchiveName } from "./backup.ts";
import { takeRecordedBackup } from "./command.ts";
import { archivedBackup, claimConsoleBackup, consoleBackupRunning, recentBackups } from "./rows.ts";
import type { BackupsSettings } from "./server-settings.ts";

/**
 * A console backup still holding its slot this long after it began is
 * taken for one whose process stopped, and no longer blocks the next.
 */
const CONSOLE_CLAIM_STALE_MS = 6 * 3_600_000;

/** An archive's name as the backup folder holds it: one of ours, with no folder in it. */
function isPlainArchiveName(file: string): boolean {
  return isArchiveName(file) && basename(file) === file && !file.includes("\\");
}

/** Whether the folder holds the archive as a file of its own (a link is not served). */
async function inFolder(dir: string, file: string | null): Promise<boolean> {
  if (file === null || !isPlainArchiveName(file)) return false;
  return lstat(join(dir, file)).then(
    (found) => found.isFile(),
    () => false,
  );
}

export default async function backupRoutes(
  app: FastifyInstance,
  { config, database, now }: AdminAreaOptions<BackupsSettings> & { now: () => number },
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  /** Backups taken after their answer: the server waits for them as it closes. */
  const running = new Set<Promise<unknown>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled(running);
  });

  routes.get(
    BACKUPS_PATH,
    { schema: { response: { 200: backupsAnswerSchema } }, config: { role: "owner" } },
    async () => {
      const [backups, backingUp] = await Promise.all([
        recentBackups(db, BACKUPS_LISTED),
        consoleBackupRunning(db),
      ]);
      return {
        schedule: {
          everyHours: config.BACKUP_EVERY_HOURS,
          keep: config.BACKUP_KEEP,
          s3Bucket: config.BACKUP_S3_BUCKET ?? null,
        },
        backingUp,
        backups: await Promise.all(
          backups.map(async (backup) => ({
            ...backup,
            downloadable:
              backup.result === "ok" && (await inFolder(config.BACKUP_DIR, backup.file)),
          })),
        ),
      };
    },
  );

  routes.post(
    BACKUPS_PATH,
    {
      schema: { response: { 202: backupStartedSchema, 409: messageSchema } },
      config: { role: "owner" },
    },
    async (request, reply) => {
      const at = now();
      const out = join(config.BACKUP_DIR, archiveName(new Date(at)));
      const id = await app.consoleWrite(request, "backup-started", async (trx, audit) => {
        const claimed = await claimConsoleBackup(
          trx,
          new Date(at).toISOString(),
          new Date(at - CONSOLE_CLAIM_STALE_MS).toISOString(),
        );
        if (claimed === null) throw refuse.conflict(BACKUP_TEXTS.alreadyRunning);
        audit.subject = basename(out);
        audit.detail = { backupId: claimed };
        return claimed;
      });
      const backup = takeRecordedBackup(database, config, {
        out,
        now,
        recordId: id,
        releasesSlot: true,
      }).then(
        ({ size }) =>
          request.log.info({ file: out, size }, "backup asked for in the console taken"),
        (error: unknown) =>
          request.log.error({ err: error, backupId: id }, "backup asked for in the console failed"),
      );
      running.add(backup);
      void backup.finally(() => running.delete(backup));
      return reply.code(202).send({ id, message: BACKUP_TEXTS.started });
    },
  );

  routes.get(
    BACKUP_ARCHIVE_PATH,
    {
      schema: {
        params: backupArchiveParamsSchema,
        // The archive itself, streamed from its file.
        response: { 200: z.unknown(), 404: messageSchema },
      },
      config: { role: "owner" },
    },
    async (request, reply) => {
      const backup = await archivedBackup(db, request.params.id);
      if (!backup || !isPlainArchiveName(backup.file)) {
        return reply.code(404).send({ message: BACKUP_TEXTS.archiveGone });
      }
      // Opened once, refusing a link planted in its place: what is sent is what was opened.
      const file = await open(
        join(config.BACKUP_DIR, backup.file),
        constants.O_RDONLY | constants.O_NOFOLLOW,
      ).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ELOOP") return null;
        throw error;
      });
      if (!file) return reply.code(404).send({ message: BACKUP_TEXTS.archiveGone });
      try {
        const { size } = await file.stat();
        await app.auditNoChange(request, "backup-downloaded", backup.file, {
          backupId: backup.id,
        });
        return reply
          .header("content-type", "application/gzip")
          .header("content-length", String(size))
          .header("content-disposition", `attachment; filename="${backup.file}"`)
          .header("cache-control", "no-store")
          .send(file.createReadStream());
      } catch (error) {
        await file.close();
        throw error;
      }
    },
  );
}
