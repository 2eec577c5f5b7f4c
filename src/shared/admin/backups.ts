/**
 * The console's "Backups" page, for owners: the schedule in force and the
 * latest backups with their time, size, result and, for a failed one, why;
 * a backup taken now, and an archive downloaded. The console's screen, its
 * API client and the server's routes use these definitions.
 */
import { z } from "zod";
import { idParamsSchema } from "../row-id.ts";
import { ADMIN_API } from "./auth.ts";
import type { RouteSlice } from "./route-entry.ts";

/** GET lists the backups; POST takes one now. */
export const BACKUPS_PATH = `${ADMIN_API}/backups`;
/** One backup's archive, downloaded; the route's pattern. */
export const BACKUP_ARCHIVE_PATH = `${BACKUPS_PATH}/:id/archive`;
export const backupArchiveParamsSchema = idParamsSchema;

/** The address the screen's Download link points at. */
export function backupArchivePath(id: number): string {
  return `${BACKUPS_PATH}/${id}/archive`;
}

export const BACKUP_TEXTS = {
  started: "The backup has started. It is listed below, and can be downloaded once it is done.",
  alreadyRunning:
    "A backup asked for in the console is still being taken. Wait until it is done, then try again.",
  archiveGone:
    "This archive is no longer in the backup folder: only the newest are kept there. Download a newer one.",
} as const;
/** The screen's path in the console, also linked from the owners' mail. */
export const BACKUPS_SCREEN = "backups";
/** The console's name of the screen. */
export const BACKUPS_LABEL = "Backups";
/** How many of the latest backups the page lists. */
export const BACKUPS_LISTED = 30;

export const backupSchema = z.object({
  id: z.number(),
  trigger: z.enum(["scheduled", "command"]),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Null while it runs (or when its process ended before it did). */
  result: z.enum(["ok", "failed"]).nullable(),
  reason: z.string().nullable(),
  file: z.string().nullable(),
  size: z.number().nullable(),
  copiedTo: z.string().nullable(),
  /** Its archive is in the backup folder, to be downloaded. */
  downloadable: z.boolean(),
});
export type Backup = z.infer<typeof backupSchema>;

export const backupsAnswerSchema = z.object({
  schedule: z.object({
    /** 0: the server takes none; `npm run backup` still works. */
    everyHours: z.number(),
    keep: z.number(),
    /** The S3 bucket each archive is copied to, if any. */
    s3Bucket: z.string().nullable(),
  }),
  /** A backup asked for in the console is being taken: another waits until it is done. */
  backingUp: z.boolean(),
  backups: backupSchema.array(),
});
export type BackupsAnswer = z.infer<typeof backupsAnswerSchema>;

/** "Back up now" accepted: the backup runs after the answer, under this id. */
export const backupStartedSchema = z.object({ id: z.number(), message: z.string() });

/**
 * This area's entries of the console's route map (console-routes.ts):
 * The list of backups, and a backup taken now.
 */
export const BACKUP_CONSOLE_ROUTES = {
  "backups.list": {
    method: "GET",
    path: BACKUPS_PATH,
    status: 200,
    response: backupsAnswerSchema,
  },
  "backups.takeNow": {
    method: "POST",
    path: BACKUPS_PATH,
    status: 202,
    response: backupStartedSchema,
  },
} as const satisfies RouteSlice;
