/**
 * The console's "Backups" page, for owners: the schedule in force and the
 * latest backups with their time, size, result and, for a failed one, why.
 * The console's screen, its API client and the server's route use these
 * definitions.
 */
import { z } from "zod";
import { ADMIN_API } from "./auth.ts";

export const BACKUPS_PATH = `${ADMIN_API}/backups`;
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
  backups: backupSchema.array(),
});
export type BackupsAnswer = z.infer<typeof backupsAnswerSchema>;
