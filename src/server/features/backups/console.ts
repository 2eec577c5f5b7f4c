/** The console's Backups page (owners only): the schedule in force and the latest backups. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  BACKUPS_LISTED,
  BACKUPS_PATH,
  backupsAnswerSchema,
} from "../../../shared/admin/backups.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { recentBackups } from "./rows.ts";

export default async function backupRoutes(
  app: FastifyInstance,
  { config, database }: AdminAreaOptions,
) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      BACKUPS_PATH,
      { schema: { response: { 200: backupsAnswerSchema } }, config: { role: "owner" } },
      async () => ({
        schedule: {
          everyHours: config.BACKUP_EVERY_HOURS,
          keep: config.BACKUP_KEEP,
          s3Bucket: config.BACKUP_S3_BUCKET ?? null,
        },
        backups: await recentBackups(database.db, BACKUPS_LISTED),
      }),
    );
}
