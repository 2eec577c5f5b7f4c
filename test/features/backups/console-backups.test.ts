/**
 * "Back up now" and the archive's download in the console's Backups area,
 * on both engines: an owner starts a backup, answered at once, and the list
 * shows it once done; the archive downloads as the very bytes of its file,
 * as an attachment, and both are in the audit log; a second backup while
 * one asked for in the console holds its slot is refused with a sentence
 * (and a claim a stopped process left is closed after a while); editors and
 * viewers are refused; neither the request nor a row can name a file
 * outside the backup folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  BACKUP_TEXTS,
  BACKUPS_PATH,
  type BackupsAnswer,
  backupArchivePath,
} from "../../../src/shared/admin/backups.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { type ConsoleClient, createAccount, signIn } from "../../support/console.ts";
import { SQLITE_ONLY } from "../../support/engines.ts";

const HOUR = 3_600_000;
const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `${name}-`));

async function listed(owner: ConsoleClient): Promise<BackupsAnswer> {
  const answer = await owner.request("GET", BACKUPS_PATH);
  expect(answer.statusCode).toBe(200);
  return answer.json() as BackupsAnswer;
}

async function auditActions(t: TestApp) {
  return t.database.db
    .selectFrom("audit_log")
    .select(["action", "actor", "target"])
    .where("action", "like", "backup-%")
    .orderBy("id")
    .execute();
}

describe.each(SQLITE_ONLY)("the console's Back up now and download on $engine", (engine) => {
  it("takes a backup after answering, lists it, and downloads its archive's bytes", async () => {
    const t = await startApp(engine, { BACKUP_DIR: tempDir("console-backups") });
    try {
      await createAccount(t.database, "owner");
      const owner = await signIn(t.app, "owner@firm.example");

      const started = await owner.request("POST", BACKUPS_PATH);
      expect(started.statusCode).toBe(202);
      expect(started.json()).toEqual({ id: expect.any(Number), message: BACKUP_TEXTS.started });
      const { id } = started.json() as { id: number };

      // The screen reads the list again until the backup is done; so does the test.
      const done = await vi.waitFor(
        async () => {
          const answer = await listed(owner);
          expect(answer.backingUp).toBe(false);
          return answer;
        },
        { timeout: 30_000, interval: 50 },
      );
      const backup = done.backups.find((row) => row.id === id);
      expect(backup).toMatchObject({ result: "ok", trigger: "command", downloadable: true });
      const file = backup?.file ?? "";
      const bytes = readFileSync(join(t.config.BACKUP_DIR, file));
      expect(backup?.size).toBe(bytes.length);

      const download = await owner.request("GET", backupArchivePath(id));
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-type"]).toBe("application/gzip");
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="${file}"`);
      expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);

      expect(await auditActions(t)).toEqual([
        { action: "backup-started", actor: "owner@firm.example", target: file },
        { action: "backup-downloaded", actor: "owner@firm.example", target: file },
      ]);

      // The slot was let go of: the next one may start.
      expect((await owner.request("POST", BACKUPS_PATH)).statusCode).toBe(202);
      await vi.waitFor(async () => expect((await listed(owner)).backingUp).toBe(false), {
        timeout: 30_000,
        interval: 50,
      });
    } finally {
      await t.close();
    }
  }, 60_000);

  it("refuses a second backup while one holds the console's slot, until that claim is stale", async () => {
    let clock = Date.parse("2026-11-28T09:00:00.000Z");
    const t = await startApp(engine, { BACKUP_DIR: tempDir("console-busy") }, { now: () => clock });
    try {
      await createAccount(t.database, "owner");
      const owner = await signIn(t.app, "owner@firm.example");
      // A backup asked for in the console, still running (on this instance or another).
      const running = await t.database.db
        .insertInto("backups")
        .values({ trigger: "command", slot: "console", started_at: new Date(clock).toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      expect((await listed(owner)).backingUp).toBe(true);

      const refused = await owner.request("POST", BACKUPS_PATH);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ message: BACKUP_TEXTS.alreadyRunning });
      expect(await auditActions(t)).toEqual([]);
      const rows = await t.database.db.selectFrom("backups").select("id").execute();
      expect(rows).toEqual([{ id: running.id }]);

      // Its process stopped: hours later the claim no longer blocks, and is closed as failed.
      clock += 7 * HOUR;
      const started = await owner.request("POST", BACKUPS_PATH);
      expect(started.statusCode).toBe(202);
      await vi.waitFor(async () => expect((await listed(owner)).backingUp).toBe(false), {
        timeout: 30_000,
        interval: 50,
      });
      const list = await listed(owner);
      expect(list.backups.find((row) => row.id === running.id)).toMatchObject({
        result: "failed",
        reason: "The server stopped before this backup was done; no archive was written.",
        downloadable: false,
      });
    } finally {
      await t.close();
    }
  }, 60_000);

  it("refuses editors and viewers every Backups route", async () => {
    const t = await startApp(engine, { BACKUP_DIR: tempDir("console-roles") });
    try {
      await createAccount(t.database, "owner");
      const owner = await signIn(t.app, "owner@firm.example");
      const { id } = (await owner.request("POST", BACKUPS_PATH)).json() as { id: number };
      await vi.waitFor(async () => expect((await listed(owner)).backingUp).toBe(false), {
        timeout: 30_000,
        interval: 50,
      });
      for (const role of ["editor", "viewer"] as const) {
        await createAccount(t.database, role);
        const person = await signIn(t.app, `${role}@firm.example`);
        expect((await person.request("GET", BACKUPS_PATH)).statusCode).toBe(403);
        expect((await person.request("POST", BACKUPS_PATH)).statusCode).toBe(403);
        const download = await person.request("GET", backupArchivePath(id));
        expect(download.statusCode).toBe(403);
        expect(download.headers["content-disposition"]).toBeUndefined();
      }
      const rows = await t.database.db.selectFrom("backups").select("id").execute();
      expect(rows).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 60_000);

  it("serves no file outside the backup folder, whatever the path or the row names", async () => {
    const outside = tempDir("outside");
    const secret = "not an archive of ours";
    writeFileSync(join(outside, "backup-secret.tar.gz"), secret);
    const t = await startApp(engine, { BACKUP_DIR: join(outside, "backups") });
    try {
      await createAccount(t.database, "owner");
      const owner = await signIn(t.app, "owner@firm.example");
      for (const crafted of [
        `${BACKUPS_PATH}/..%2Fbackup-secret.tar.gz/archive`,
        `${BACKUPS_PATH}/1%2F..%2F..%2Fbackup-secret.tar.gz/archive`,
        `${BACKUPS_PATH}/0x1/archive`,
        `${BACKUPS_PATH}/99999999999/archive`,
      ]) {
        const answer = await owner.request("GET", crafted);
        expect(answer.statusCode, crafted).toBe(400);
        expect(answer.body).not.toContain(secret);
      }
      // Rows as a restored or tampered database might hold them.
      const rowNaming = async (file: string) =>
        (
          await t.database.db
            .insertInto("backups")
            .values({
              trigger: "command",
              started_at: "2026-11-28T09:00:00.000Z",
              finished_at: "2026-11-28T09:01:00.000Z",
              result: "ok",
              file,
              size: secret.length,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      const linked = "backup-2026-11-28T09-00-00.000Z.tar.gz";
      mkdirSync(t.config.BACKUP_DIR, { recursive: true });
      symlinkSync(join(outside, "backup-secret.tar.gz"), join(t.config.BACKUP_DIR, linked));
      for (const file of [
        "backup-/../../backup-secret.tar.gz",
        "../backup-secret.tar.gz",
        linked,
      ]) {
        const id = await rowNaming(file);
        const answer = await owner.request("GET", backupArchivePath(id));
        expect(answer.statusCode, file).toBe(404);
        expect(answer.json()).toEqual({ message: BACKUP_TEXTS.archiveGone });
        expect(answer.body).not.toContain(secret);
      }
      expect((await listed(owner)).backups.every((row) => !row.downloadable)).toBe(true);
      expect(await auditActions(t)).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
});
