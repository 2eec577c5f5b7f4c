/**
 * The copy of each scheduled archive in S3, or any service that speaks its
 * API (a custom endpoint is addressed path-style, as MinIO and most others
 * want). The credentials are found the AWS SDK's own way: AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, a profile, or the machine's role. The bucket
 * keeps as many archives as the backup folder (BACKUP_KEEP).
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { isArchiveName } from "./backup.ts";
import type { BackupsSettings } from "./server-settings.ts";

export type S3Config = Pick<
  BackupsSettings,
  "BACKUP_S3_BUCKET" | "BACKUP_S3_ENDPOINT" | "BACKUP_S3_REGION" | "BACKUP_KEEP"
>;

/** The SDK is loaded on first use: a site without a bucket never pays its start-up time. */
const sdk = () => import("@aws-sdk/client-s3");

async function client(config: S3Config): Promise<S3Client> {
  const { S3Client } = await sdk();
  return new S3Client({
    region: config.BACKUP_S3_REGION,
    ...(config.BACKUP_S3_ENDPOINT
      ? { endpoint: config.BACKUP_S3_ENDPOINT, forcePathStyle: true }
      : {}),
  });
}

/**
 * Uploads the archive under its own name, then removes the bucket's oldest
 * archives beyond the keep count. Returns where it went (s3://bucket/name),
 * or null when no bucket is set.
 */
export async function copyToS3(config: S3Config, file: string): Promise<string | null> {
  const bucket = config.BACKUP_S3_BUCKET;
  if (!bucket) return null;
  const s3 = await client(config);
  const { PutObjectCommand } = await sdk();
  try {
    const key = basename(file);
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: createReadStream(file),
        ContentLength: (await stat(file)).size,
        ContentType: "application/gzip",
      }),
    );
    await pruneBucket(s3, bucket, config.BACKUP_KEEP);
    return `s3://${bucket}/${key}`;
  } finally {
    s3.destroy();
  }
}

async function pruneBucket(s3: S3Client, bucket: string, keep: number): Promise<void> {
  const { DeleteObjectsCommand, ListObjectsV2Command } = await sdk();
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      if (object.Key && isArchiveName(object.Key)) names.push(object.Key);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  // The names sort by their time; the oldest come first.
  const surplus = names.sort().slice(0, Math.max(0, names.length - keep));
  if (surplus.length === 0) return;
  await s3.send(
    new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: surplus.map((Key) => ({ Key })) },
    }),
  );
}
