/**
 * What the site writes to disk is its own user's alone, whatever umask it
 * was started with: the SQLite database, its -wal and -shm files and its
 * folder; the pictures and the mail it writes and their folders; backup
 * archives and their folder; what a restore puts back. Files are 0600 and
 * folders 0700. A site made before this, with looser modes, is tightened
 * when the server starts. The whole file runs with umask 000, the loosest.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BackupConfig,
  commandBackup,
  restoreArchive,
} from "../../../src/server/features/backups/index.ts";
import { openDatabase } from "../../../src/server/platform/db/connection.ts";
import { writeAtomically } from "../../../src/server/platform/media/atomic-write.ts";
import { mailboxMailer } from "../../../src/server/platform/outbox/transport.ts";
import { startApp } from "../../support/app.ts";
import { ENGINES, openMigrated } from "../../support/engines.ts";

const sqlite = ENGINES.find((engine) => engine.engine === "sqlite");
if (!sqlite) throw new Error("SQLite is always among the engines");

const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8);

/** The mode of `dir` and of every file and folder under it, by path relative to `root`. */
function modesUnder(root: string, dir: string): Record<string, string> {
  const paths = [
    dir,
    ...readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) =>
      join(entry.parentPath, entry.name),
    ),
  ];
  return Object.fromEntries(paths.map((path) => [path.slice(root.length + 1), modeOf(path)]));
}

/** The same paths as `modes`, each with its owner-only mode. */
function ownerOnly(root: string, modes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(modes).map((path) => [
      path,
      statSync(join(root, path)).isDirectory() ? "700" : "600",
    ]),
  );
}

let umask: number;
beforeAll(() => {
  umask = process.umask(0o000);
});
afterAll(() => {
  process.umask(umask);
});

function backupConfig(root: string, sqliteFile: string): BackupConfig {
  return {
    DATABASE_URL: undefined,
    SQLITE_FILE: sqliteFile,
    MEDIA_DIR: join(root, "media"),
    MAILBOX_DIR: join(root, "mail"),
    BACKUP_DIR: join(root, "backups"),
    BACKUP_RESTORE_MAX_MB: 4096,
  };
}

describe("with umask 000", () => {
  it("makes a new SQLite database, its journal files and its folder owner-only", async () => {
    const root = mkdtempSync(join(tmpdir(), "owner-only-db-"));
    const file = join(root, "data", "site.db");
    const database = openDatabase({ databaseUrl: undefined, sqliteFile: file });
    try {
      await database.db.schema.createTable("t").addColumn("x", "integer").execute();
      expect({
        data: modeOf(join(root, "data")),
        database: modeOf(file),
        wal: modeOf(`${file}-wal`),
        shm: modeOf(`${file}-shm`),
      }).toEqual({ data: "700", database: "600", wal: "600", shm: "600" });
    } finally {
      await database.db.destroy();
    }
  });

  it("leaves a shared sticky folder, as /tmp, as it is when the database is put straight in it", async () => {
    const shared = mkdtempSync(join(tmpdir(), "owner-only-shared-"));
    chmodSync(shared, 0o1777);
    const file = join(shared, "site.db");
    const database = openDatabase({ databaseUrl: undefined, sqliteFile: file });
    await database.db.destroy();
    expect({ folder: modeOf(shared), database: modeOf(file) }).toEqual({
      folder: "1777",
      database: "600",
    });
  });

  it("writes pictures and mail owner-only, in owner-only folders", async () => {
    const root = mkdtempSync(join(tmpdir(), "owner-only-files-"));
    const picture = join(root, "media", "insight", "0123456789abcdef01234567.webp");
    await writeAtomically(picture, Buffer.from("webp bytes"));
    const log = { info() {}, warn() {} } as unknown as FastifyBaseLogger;
    const mailer = mailboxMailer(join(root, "mail"), log);
    await mailer.send({
      messageId: "<m@site>",
      from: "site@example.com",
      to: "reader@example.com",
      subject: "Hello",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    mailer.close();
    const modes = {
      ...modesUnder(root, join(root, "media")),
      ...modesUnder(root, join(root, "mail")),
    };
    expect(Object.keys(modes)).toHaveLength(5);
    expect(modes).toEqual(ownerOnly(root, modes));
  });

  it("tightens, at start, a site made before with looser modes", async () => {
    const template = await sqlite.create();
    const root = mkdtempSync(join(tmpdir(), "owner-only-start-"));
    const data = join(root, "data");
    const file = join(data, "site.db");
    mkdirSync(data, { mode: 0o755 });
    copyFileSync(template.env.SQLITE_FILE ?? "", file);
    chmodSync(file, 0o644);
    for (const name of ["media", "mail", "backups"]) mkdirSync(join(data, name), { mode: 0o755 });
    const t = await startApp(sqlite, {
      SQLITE_FILE: file,
      MEDIA_DIR: join(data, "media"),
      MAILBOX_DIR: join(data, "mail"),
      BACKUP_DIR: join(data, "backups"),
    });
    try {
      expect({
        data: modeOf(data),
        database: modeOf(file),
        media: modeOf(join(data, "media")),
        mail: modeOf(join(data, "mail")),
        backups: modeOf(join(data, "backups")),
      }).toEqual({ data: "700", database: "600", media: "700", mail: "700", backups: "700" });
    } finally {
      await t.close();
    }
  });

  it("writes a backup owner-only, in an owner-only folder, and restores it owner-only", async () => {
    const source = await sqlite.create();
    const database = await openMigrated(source);
    const root = mkdtempSync(join(tmpdir(), "owner-only-backup-"));
    const config = backupConfig(root, source.env.SQLITE_FILE ?? "");
    mkdirSync(join(config.MEDIA_DIR, "insight"), { recursive: true, mode: 0o755 });
    writeFileSync(join(config.MEDIA_DIR, "insight", "a.webp"), "webp bytes", { mode: 0o644 });
    mkdirSync(config.MAILBOX_DIR, { mode: 0o755 });
    writeFileSync(join(config.MAILBOX_DIR, "0001.eml"), "Subject: hi\r\n\r\nHi\r\n", {
      mode: 0o644,
    });
    const out = join(config.BACKUP_DIR, "backup.tar.gz");
    try {
      await commandBackup(database, config, { out, now: Date.now });
    } finally {
      await database.db.destroy();
    }
    const entries: Record<string, string> = {};
    await tar.list({
      file: out,
      onReadEntry: (entry) => {
        entries[entry.path] = (entry.mode ?? 0).toString(8);
      },
    });
    expect({ folder: modeOf(config.BACKUP_DIR), archive: modeOf(out) }).toEqual({
      folder: "700",
      archive: "600",
    });
    expect(entries).toEqual(
      Object.fromEntries(
        Object.keys(entries).map((path) => [path, path.endsWith("/") ? "700" : "600"]),
      ),
    );

    const place = mkdtempSync(join(tmpdir(), "owner-only-restore-"));
    const target = backupConfig(place, join(place, "data", "site.db"));
    await restoreArchive(target, out, { force: false });
    const restored = {
      ...modesUnder(place, join(place, "data")),
      ...modesUnder(place, target.MEDIA_DIR),
      ...modesUnder(place, target.MAILBOX_DIR),
    };
    expect(restored).toMatchObject({
      data: "700",
      "data/site.db": "600",
      "data/site.db-instances": "600",
      media: "700",
      "media/insight": "700",
      "media/insight/a.webp": "600",
      mail: "700",
      "mail/0001.eml": "600",
    });
    expect(restored).toEqual(ownerOnly(place, restored));
  });
});
