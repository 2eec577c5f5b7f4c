/**
 * Backups the server takes on its schedule, on both engines: each period's
 * is taken once by two instances sharing a database, even when both try at
 * the same moment; the archives beyond BACKUP_KEEP are removed, here and in
 * the S3 bucket each is copied to (a local stand-in, s3rver); a failed one
 * is recorded with its reason and mailed to every owner through the
 * outbox; owners, and only they, see the list in the console.
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runScheduledBackup, slotOf } from "../../../src/server/features/backups/index.ts";
import { BACKUPS_PATH, type BackupsAnswer } from "../../../src/shared/admin/backups.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { createAccount, signIn } from "../../support/console.ts";
import { ENGINES } from "../../support/engines.ts";
import { unwrapped } from "../../support/mail-text.ts";

const HOUR = 3_600_000;
const AT = Date.parse("2026-11-27T06:30:00.000Z");
const BUCKET = "site-backups";
const S3_KEY = "S3RVER";

const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `${name}-`));
const archivesIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".tar.gz"));
const databaseEnv = (t: TestApp): Record<string, string> =>
  t.config.DATABASE_URL
    ? { DATABASE_URL: t.config.DATABASE_URL }
    : { SQLITE_FILE: t.config.SQLITE_FILE };

function scheduleOf(t: TestApp, now: () => number) {
  return {
    config: t.config,
    database: t.database,
    log: t.app.log,
    withOutbox: t.app.withOutbox,
    now,
  };
}

let s3: S3rver;
let endpoint: string;

beforeAll(async () => {
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: tempDir("s3rver"),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  // The AWS SDK's own variables, as on a real server; s3rver accepts this pair.
  process.env.AWS_ACCESS_KEY_ID = S3_KEY;
  process.env.AWS_SECRET_ACCESS_KEY = S3_KEY;
});
afterAll(async () => {
  await s3.close();
});

async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY },
  });
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    return (page.Contents ?? []).map((object) => object.Key ?? "").sort();
  } finally {
    client.destroy();
  }
}

describe.each(ENGINES)("scheduled backups on $engine", (engine) => {
  it("takes a period's backup once across two instances sharing a database", async () => {
    const now = () => AT;
    const env = { BACKUP_EVERY_HOURS: "6" };
    const first = await startApp(engine, { ...env, BACKUP_DIR: tempDir("backups-a") }, { now });
    const second = await startApp(
      engine,
      { ...env, ...databaseEnv(first), BACKUP_DIR: tempDir("backups-b") },
      { now, shared: first.testDb },
    );
    try {
      const said = (t: TestApp, message: string) => t.logs.some((line) => line.includes(message));
      await vi.waitFor(
        () => {
          expect(said(first, '"msg":"scheduled backup taken"')).toBe(true);
          expect(said(second, '"msg":"scheduled backup taken by another instance"')).toBe(true);
        },
        { timeout: 30_000, interval: 50 },
      );
      const rows = await first.database.db.selectFrom("backups").selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({
          trigger: "scheduled",
          slot: "2026-11-27T06:00:00.000Z",
          result: "ok",
        }),
      ]);
      expect(archivesIn(first.config.BACKUP_DIR)).toEqual([rows[0]?.file]);
      expect(archivesIn(second.config.BACKUP_DIR)).toEqual([]);

      // Both at the very same moment, for the next period: one takes it.
      const next = slotOf(AT + 6 * HOUR, 6);
      const later = () => AT + 6 * HOUR;
      const outcomes = await Promise.all([
        runScheduledBackup(scheduleOf(first, later), next),
        runScheduledBackup(scheduleOf(second, later), next),
      ]);
      expect(outcomes.sort()).toEqual(["elsewhere", "ok"]);
      const taken = await first.database.db
        .selectFrom("backups")
        .select("slot")
        .where("slot", "=", next)
        .execute();
      expect(taken).toHaveLength(1);
    } finally {
      await second.close();
      await first.close();
    }
  }, 60_000);

  it("keeps BACKUP_KEEP archives, here and in the S3 bucket, and owners alone see them", async () => {
    const t = await startApp(engine, {
      BACKUP_DIR: tempDir("backups-keep"),
      BACKUP_KEEP: "2",
      BACKUP_S3_BUCKET: BUCKET,
      BACKUP_S3_ENDPOINT: endpoint,
    });
    try {
      for (let period = 0; period < 3; period += 1) {
        const at = AT + period * 24 * HOUR;
        expect(
          await runScheduledBackup(
            scheduleOf(t, () => at),
            slotOf(at, 24),
          ),
        ).toBe("ok");
      }
      const rows = await t.database.db.selectFrom("backups").selectAll().orderBy("id").execute();
      expect(rows.map((row) => row.result)).toEqual(["ok", "ok", "ok"]);
      const kept = rows.slice(1).map((row) => row.file ?? "");
      expect(archivesIn(t.config.BACKUP_DIR)).toEqual(kept);
      expect(rows.map((row) => row.copied_to)).toEqual(
        rows.map((row) => `s3://${BUCKET}/${row.file}`),
      );
      // Each engine's run writes the same names (the same clock): the two newest stay.
      expect(await bucketKeys()).toEqual(kept);

      await createAccount(t.database, "owner");
      await createAccount(t.database, "viewer");
      const owner = await signIn(t.app, "owner@firm.example");
      const viewer = await signIn(t.app, "viewer@firm.example");
      const answer = await owner.request("GET", BACKUPS_PATH);
      expect(answer.statusCode).toBe(200);
      const body = answer.json() as BackupsAnswer;
      expect(body.schedule).toEqual({ everyHours: 0, keep: 2, s3Bucket: BUCKET });
      expect(body.backups.map((backup) => backup.file)).toEqual(
        rows.map((row) => row.file).reverse(),
      );
      expect(body.backups[0]).toMatchObject({
        result: "ok",
        reason: null,
        size: Number(rows[2]?.size),
      });
      expect((await viewer.request("GET", BACKUPS_PATH)).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  }, 60_000);

  it("records a failed backup with its reason and mails every owner through the outbox", async () => {
    // The backup folder cannot be made: a file stands where its parent should be.
    const blocker = join(tempDir("blocked"), "a-file");
    writeFileSync(blocker, "");
    const t = await startApp(engine, { BACKUP_DIR: join(blocker, "backups") });
    try {
      await createAccount(t.database, "owner", "first-owner@firm.example");
      await createAccount(t.database, "owner", "second-owner@firm.example");
      await createAccount(t.database, "editor");
      expect(
        await runScheduledBackup(
          scheduleOf(t, () => AT),
          slotOf(AT, 6),
        ),
      ).toBe("failed");
      const [row] = await t.database.db.selectFrom("backups").selectAll().execute();
      expect(row).toMatchObject({ result: "failed", file: null });
      expect(row?.reason).toMatch(/ENOTDIR/);
      const mails = await t.database.db
        .selectFrom("outbox")
        .select(["kind", "message"])
        .where("kind", "=", "backup-failed")
        .execute();
      const to = mails.map((mail) => (JSON.parse(mail.message) as { to: string }).to).sort();
      expect(to).toEqual(["first-owner@firm.example", "second-owner@firm.example"]);
      const message = JSON.parse(mails[0]?.message ?? "{}") as { subject: string; text: string };
      expect(message.subject).toBe("The scheduled backup failed");
      expect(unwrapped(message.text)).toContain(row?.reason ?? "no reason");
      expect(message.text).toContain("/admin/backups");
    } finally {
      await t.close();
    }
  }, 60_000);
});
