/** The backups' settings slice: where archives go, how often the server takes one, how many are kept, the restore's limit and the S3 copy. */
import { z } from "zod";
import { path, url } from "../../platform/setting-kinds.ts";

export const backupsSettings = z
  .object({
    BACKUP_DIR: path("data/backups").meta({
      description:
        "Where backup archives are written, by `npm run backup` and by the schedule ([Backups and restore](backups.md)).",
      comment:
        "Where archives go, how often the server takes one (0: never), and how many are kept.",
    }),
    BACKUP_EVERY_HOURS: z.coerce.number().int().min(0).max(744).default(0).meta({
      description:
        "How often the server takes a backup by itself, in hours (1 to 744), counted from 00:00 UTC (`6`: at 00:00, 06:00, 12:00 and 18:00 UTC); one instance takes each, however many run. `0` or unset: none (`npm run backup` still works).",
    }),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14).meta({
      description:
        "How many archives the schedule keeps in `BACKUP_DIR` (and in the S3 bucket); the oldest beyond it are deleted after each good backup.",
    }),
    // ADR 059: an archive larger than this is refused before anything is written.
    BACKUP_RESTORE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(4096).meta({
      description:
        "The most a restore unpacks and writes; a larger archive is refused before anything is written. Raise it for a site with more pictures, as far as the disk (and the temporary folder) hold that much (ADR 059).",
      comment:
        "The most a restore unpacks (MB); a larger archive is refused before anything is written.",
    }),
    BACKUP_S3_BUCKET: z.string().min(3).optional().meta({
      description:
        "Copy each scheduled archive to this S3 bucket (or any service that speaks S3's API). The credentials are the AWS SDK's own: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, a profile, or the machine's role.",
      comment:
        "An S3 copy of each archive. The credentials are the AWS SDK's own AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.",
    }),
    BACKUP_S3_ENDPOINT: url().optional().meta({
      description:
        "Another S3 service's address (`https://s3.eu-central-003.backblazeb2.com`, a MinIO); addressed path-style.",
      shownDefault: "AWS",
    }),
    BACKUP_S3_REGION: z
      .string()
      .min(1)
      .default("us-east-1")
      .meta({ description: "The bucket's region." }),
  })
  .meta({
    title: "Backups",
    description: "Archives of the database and the files; see [Backups and restore](backups.md).",
  });

export type BackupsSettings = z.output<typeof backupsSettings>;
