/**
 * `npm run restore` run the way an operator runs it, beside a real server
 * process, on both engines: while an instance runs on the database the
 * restore is refused in one sentence, with or without --force, and the
 * instance goes on writing into the live database; once it is stopped the
 * restore goes ahead. An instance killed with SIGKILL leaves no lock behind:
 * the restore then asks only what it always asks of a place that holds a
 * site, --force.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commandBackup, SITE_RUNNING_REFUSAL } from "../../../src/server/features/backups/index.ts";
import { openDatabase } from "../../../src/server/platform/db/connection.ts";
import { fillSite, siteFolders } from "../../support/backup-site.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";
import { nodeArgs } from "../../support/entry.ts";
import { VALID_INQUIRY } from "../../support/fixtures.ts";
import { clientFor, startServer } from "../../support/server-process.ts";

const run = promisify(execFile);
const AT = Date.parse("2026-11-27T03:00:00.000Z");
/** Inquiries in the archive, written before the backup. */
const ARCHIVED = 2;

describe.each(ENGINES)("a restore beside a running site on $engine", (engine) => {
  let testDb: TestDatabase;
  let env: Record<string, string>;
  let archive: string;

  beforeAll(async () => {
    testDb = await engine.create();
    const folders = siteFolders();
    env = {
      ...testDb.env,
      MEDIA_DIR: folders.media,
      MAILBOX_DIR: folders.mail,
      BACKUP_DIR: mkdtempSync(join(tmpdir(), "backups-")),
    };
    const database = await openMigrated(testDb);
    try {
      await fillSite(database, ARCHIVED);
      archive = join(env.BACKUP_DIR ?? "", "before.tar.gz");
      await commandBackup(
        database,
        {
          DATABASE_URL: env.DATABASE_URL,
          SQLITE_FILE: env.SQLITE_FILE ?? "unused.db",
          MEDIA_DIR: folders.media,
          MAILBOX_DIR: folders.mail,
          BACKUP_DIR: env.BACKUP_DIR ?? "",
          BACKUP_RESTORE_MAX_MB: 4096,
        },
        { out: archive, now: () => AT },
      );
    } finally {
      await database.db.destroy();
    }
  }, 60_000);

  afterAll(async () => {
    await testDb?.drop();
  });

  /** The restore command as an operator runs it, with the site's settings. */
  const restore = (...args: string[]) =>
    run(process.execPath, [...nodeArgs("src/server/cli/restore.ts"), archive, ...args], {
      env: { ...process.env, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  /** The comments of every inquiry in the database, read by a connection of the test's own. */
  async function inquiryComments(): Promise<string[]> {
    const database = openDatabase({
      databaseUrl: env.DATABASE_URL,
      sqliteFile: env.SQLITE_FILE ?? "unused.db",
    });
    try {
      const rows = await database.db.selectFrom("inquiries").select("comments").execute();
      return rows.map((row) => row.comments).sort();
    } finally {
      await database.db.destroy();
    }
  }

  it("refuses with and without --force while an instance runs, and the instance keeps the live database", async () => {
    const server = await startServer(env);
    try {
      const client = await clientFor(server.origin);
      const send = (comments: string) =>
        client.post("/api/v1/send-comment", { ...VALID_INQUIRY, comments });
      expect((await send("Written before the restore was tried.")).status).toBe(200);
      const fileBefore = env.SQLITE_FILE ? statSync(env.SQLITE_FILE).ino : null;

      for (const args of [["--force"], []]) {
        const refused = await restore(...args);
        expect(refused.code, args.join(" ")).toBe(1);
        expect(refused.stderr.trim().split("\n")).toEqual([SITE_RUNNING_REFUSAL]);
      }

      expect((await send("Written after the restore was refused.")).status).toBe(200);
      if (env.SQLITE_FILE) expect(statSync(env.SQLITE_FILE).ino).toBe(fileBefore);
      const comments = await inquiryComments();
      expect(comments).toContain("Written before the restore was tried.");
      expect(comments).toContain("Written after the restore was refused.");
      expect(comments).toHaveLength(ARCHIVED + 2);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }

    const restored = await restore("--force");
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(restored.stdout).toMatch(/^Restored /);
    const comments = await inquiryComments();
    expect(comments).toHaveLength(ARCHIVED);
    expect(comments).not.toContain("Written before the restore was tried.");
  }, 120_000);

  it("finds no lock left by an instance killed with SIGKILL: --force alone decides", async () => {
    const server = await startServer(env);
    server.child.kill("SIGKILL");
    await server.exited;
    if (env.DATABASE_URL) await sessionsEnded(env.DATABASE_URL);

    const refused = await restore();
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /already holds a site: a restore would replace it\. Stop the site, then run the restore again with --force\.$/,
    );
    const restored = await restore("--force");
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(await inquiryComments()).toHaveLength(ARCHIVED);
  }, 120_000);
});

/**
 * PostgreSQL ends a killed client's sessions when it reads the closed
 * socket, a moment after the kill: until then the session still holds its
 * locks, as it would for a live instance.
 */
async function sessionsEnded(databaseUrl: string): Promise<void> {
  const database = openDatabase({ databaseUrl, sqliteFile: "unused.db" });
  try {
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ others: string }>`
          select count(*) as others from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(database.db);
        expect(Number(rows[0]?.others)).toBe(0);
      },
      { timeout: 10_000 },
    );
  } finally {
    await database.db.destroy();
  }
}
