/**
 * The console's settings slice: its built files, how long a session lasts
 * and its row stays, the audit log's keeping, and where uploaded images go.
 */
import { z } from "zod";
import { builtPath, path } from "../setting-kinds.ts";

export const consoleSettings = z
  .object({
    ADMIN_DIR: builtPath("build/admin").meta({
      description: "The console's built files, served at `/admin`.",
    }),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(30)
      .meta({ description: "A console session ends after this long without a request." }),
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(12).meta({
      description: "A console session ends this long after sign-in, whatever the activity.",
    }),
    AUDIT_RETENTION_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .default(365)
      .meta({ description: "How long the console's audit log keeps an entry." }),
    // The audit log keeps each sign-in with its address (ADR 048).
    SESSION_RETENTION_DAYS: z.coerce.number().int().min(0).default(0).meta({
      description:
        "How long a console session's row (IP address, browser) stays after the session ended; `0` removes it at the next daily purge.",
      comment: "Days the daily purge keeps a console session after it ended.",
    }),
    MEDIA_DIR: path("data/media").meta({
      description: "Images uploaded in the console: the originals and their AVIF and WebP sizes.",
    }),
  })
  .meta({
    title: "The console",
    description:
      "The console at `/admin`: its built files, its sessions, its audit log, and the images uploaded in it.",
  });
