/**
 * `npm run backup` and `npm run restore`, on both engines: a backup taken
 * while writes keep arriving restores, into an empty place, to exactly the
 * data of one moment (every row written before it began, then a prefix of
 * those written during it, every other row and every file identical); a
 * damaged archive, one from a newer schema or of the other engine is
 * refused with one sentence; a place that holds a site is replaced only
 * with --force; a pg_dump older than the server is refused. The CLIs print
 * their usage on --help and fail in one line.
 */
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type BackupConfig,
  BackupRefusal,
  commandBackup,
  pgDumpRefusal,
  restoreArchive,
} from "../../../src/server/features/backups/index.ts";
import { seedOnce } from "../../../src/server/features/content/index.ts";
import { type DatabaseHandle, openDatabase } from "../../../src/server/platform/db/connection.ts";
import { knownMigrations } from "../../../src/server/platform/db/migrations.ts";
import {
  dumpTables,
  filesOf,
  fillSite,
  siteFolders,
  startWriter,
  writtenAddress,
} from "../../support/backup-site.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../support/engines.ts";
import { nodeArgs } from "../../support/entry.ts";

const run = promisify(execFile);
/** The clock of the backup: the record it leaves and the one the restore completes agree on it. */
const AT = Date.parse("2026-11-27T03:00:00.000Z");
const now = () => AT;

function configOf(testDb: TestDatabase, folders: { media: string; mail: string }): BackupConfig {
  return {
    DATABASE_URL: testDb.env.DATABASE_URL,
    SQLITE_FILE: testDb.env.SQLITE_FILE ?? "unused.db",
    MEDIA_DIR: folders.media,
    MAILBOX_DIR: folders.mail,
    BACKUP_DIR: mkdtempSync(join(tmpdir(), "backups-")),
    BACKUP_RESTORE_MAX_MB: 4096,
  };
}

/** An empty place to restore into: a new database and folders that do not exist yet. */
async function emptyPlace(engine: (typeof ENGINES)[number]) {
  const testDb = await engine.createEmpty();
  const root = mkdtempSync(join(tmpdir(), "restore-place-"));
  const config = configOf(testDb, { media: join(root, "media"), mail: join(root, "mail") });
  return { testDb, config };
}

function open(config: BackupConfig): DatabaseHandle {
  return openDatabase({ databaseUrl: config.DATABASE_URL, sqliteFile: config.SQLITE_FILE });
}

/** Rewrites an archive after `change` edits its extracted files (a forger's archive, well-formed). */
async function rewritten(archive: string, change: (dir: string) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "tampered-"));
  await tar.extract({ file: archive, cwd: dir });
  change(dir);
  const out = join(mkdtempSync(join(tmpdir(), "tampered-out-")), "tampered.tar.gz");
  await tar.create({ gzip: true, cwd: dir, file: out }, [
    "manifest.json",
    "database",
    "media",
    "mail",
  ]);
  return out;
}

describe.each(ENGINES)("backup and restore on $engine", (engine) => {
  let source: TestDatabase;
  let database: DatabaseHandle;
  let config: BackupConfig;
  let archive: string;
  let writtenBefore: number;
  let writtenInAll: number;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    source = await engine.create();
    database = await openMigrated(source);
    await seedOnce(database.db, "content");
    await fillSite(database);
    config = configOf(source, siteFolders());
    archive = join(config.BACKUP_DIR, "while-writing.tar.gz");
    const writer = startWriter(database, config.SQLITE_FILE);
    // Some rows are in before the backup begins; more keep coming during it.
    await vi.waitFor(() => expect(writer.committed()).toBeGreaterThan(20), { timeout: 10_000 });
    writtenBefore = writer.committed();
    const taken = commandBackup(database, config, { out: archive, now });
    await taken.finally(async () => {
      writtenInAll = await writer.stop();
    });
  }, 60_000);

  afterAll(async () => {
    // The connections first, then the databases they were on.
    for (const cleanup of cleanups.reverse()) await cleanup();
    await database.db.destroy();
    await source.drop();
  });

  it("restores into an empty place exactly the data of one moment during the backup", async () => {
    const place = await emptyPlace(engine);
    cleanups.push(() => place.testDb.drop());
    const manifest = await restoreArchive(place.config, archive, { force: false });
    expect(manifest.engine).toBe(engine.engine);
    expect(manifest.schemaVersion).toBe(knownMigrations().at(-1));

    const restored = open(place.config);
    cleanups.push(() => restored.db.destroy());
    const after = await dumpTables(restored);
    const before = await dumpTables(database);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) {
      if (table === "subscriptions") continue;
      expect(after[table], table).toEqual(before[table]);
    }
    // The subscribers written during the backup: all those committed before
    // it began, then the next ones in order up to the moment of its copy.
    const emails = (await restored.db.selectFrom("subscriptions").select("email").execute())
      .map((row) => row.email)
      .sort();
    const count = emails.length;
    expect(writtenInAll).toBeGreaterThan(writtenBefore);
    expect(count).toBeGreaterThanOrEqual(writtenBefore);
    expect(count).toBeLessThanOrEqual(writtenInAll);
    expect(emails).toEqual(Array.from({ length: count }, (_, n) => writtenAddress(n)));
    const originals = new Set(before.subscriptions);
    for (const row of after.subscriptions ?? []) expect(originals.has(row)).toBe(true);

    expect(filesOf(place.config.MEDIA_DIR)).toEqual(filesOf(config.MEDIA_DIR));
    expect(filesOf(place.config.MAILBOX_DIR)).toEqual(filesOf(config.MAILBOX_DIR));
    // The backup's own record, completed from the archive, as the source has it.
    const [record] = await restored.db.selectFrom("backups").selectAll().execute();
    expect(record).toMatchObject({ result: "ok", file: "while-writing.tar.gz" });
  });

  it("refuses a place that already holds a site unless forced, then replaces it", async () => {
    const place = await emptyPlace(engine);
    cleanups.push(() => place.testDb.drop());
    const other = await openMigrated(place.testDb);
    await fillSite(other, 3);
    await other.db.destroy();
    await expect(restoreArchive(place.config, archive, { force: false })).rejects.toThrow(
      /already holds a site: a restore would replace it\. Stop the site, then run the restore again with --force\./,
    );
    await restoreArchive(place.config, archive, { force: true });
    const restored = open(place.config);
    cleanups.push(() => restored.db.destroy());
    expect((await dumpTables(restored)).inquiries).toEqual((await dumpTables(database)).inquiries);
  });

  it("refuses a truncated archive, and one with a byte changed, in one sentence", async () => {
    const place = await emptyPlace(engine);
    cleanups.push(() => place.testDb.drop());
    const bytes = readFileSync(archive);
    const dir = mkdtempSync(join(tmpdir(), "damaged-"));
    const truncated = join(dir, "truncated.tar.gz");
    writeFileSync(truncated, bytes);
    truncateSync(truncated, Math.floor(bytes.length / 2));
    const flipped = join(dir, "flipped.tar.gz");
    const changed = Buffer.from(bytes);
    const middle = Math.floor(changed.length / 2);
    changed[middle] = (changed[middle] ?? 0) ^ 0xff;
    writeFileSync(flipped, changed);
    for (const file of [truncated, flipped]) {
      const refusal = restoreArchive(place.config, file, { force: false });
      await expect(refusal).rejects.toBeInstanceOf(BackupRefusal);
      await expect(refusal).rejects.toThrow(
        new RegExp(
          `^${file.replaceAll(".", "\\.")} is damaged or incomplete \\(.+\\): it cannot be restored\\. Use another archive\\.$`,
        ),
      );
    }
    // Nothing was restored.
    expect(existsSync(place.config.MEDIA_DIR)).toBe(false);
  });

  it("refuses a well-formed archive whose file does not match its checksum", async () => {
    const place = await emptyPlace(engine);
    cleanups.push(() => place.testDb.drop());
    const forged = await rewritten(archive, (dir) =>
      writeFileSync(join(dir, "media", "photo-640.avif"), "other bytes"),
    );
    await expect(restoreArchive(place.config, forged, { force: false })).rejects.toThrow(
      "(media/photo-640.avif does not match its checksum)",
    );
  });

  it("refuses an archive from a newer schema than this code knows", async () => {
    const place = await emptyPlace(engine);
    cleanups.push(() => place.testDb.drop());
    const newer = await rewritten(archive, (dir) => {
      const path = join(dir, "manifest.json");
      const manifest = JSON.parse(readFileSync(path, "utf8"));
      writeFileSync(path, JSON.stringify({ ...manifest, schemaVersion: "999_from_the_future" }));
    });
    await expect(restoreArchive(place.config, newer, { force: false })).rejects.toThrow(
      `This archive comes from a newer version of the site (database schema 999_from_the_future; this version knows up to ${knownMigrations().at(-1)}): restore it with that version or a later one.`,
    );
  });

  it("refuses an archive of the other engine", async () => {
    const root = mkdtempSync(join(tmpdir(), "other-engine-"));
    mkdirSync(root, { recursive: true });
    const otherEngine: BackupConfig =
      engine.engine === "sqlite"
        ? {
            ...config,
            DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
            MEDIA_DIR: join(root, "m"),
            MAILBOX_DIR: join(root, "l"),
          }
        : {
            ...config,
            DATABASE_URL: undefined,
            SQLITE_FILE: join(root, "site.db"),
            MEDIA_DIR: join(root, "m"),
            MAILBOX_DIR: join(root, "l"),
          };
    await expect(restoreArchive(otherEngine, archive, { force: false })).rejects.toThrow(
      /^This archive holds a (SQLite|PostgreSQL) database, but this site is set up for /,
    );
  });
});

describe("the backup and restore commands", () => {
  const tsx = (script: string, args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [...nodeArgs(`src/server/cli/${script}.ts`), ...args], {
      env: { ...process.env, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("print their usage on --help and exit 0", async () => {
    const [backup, restore] = await Promise.all([
      tsx("backup", ["--help"]),
      tsx("restore", ["--help"]),
    ]);
    expect(backup).toMatchObject({ code: 0, stderr: "" });
    expect(backup.stdout).toMatch(/^Usage: npm run backup -- \[--out FILE\]/);
    expect(restore).toMatchObject({ code: 0, stderr: "" });
    expect(restore.stdout).toMatch(/^Usage: npm run restore -- FILE \[--force\]/);
  }, 30_000);

  it("refuse a damaged archive with one line and no stack", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-damaged-"));
    const file = join(dir, "backup.tar.gz");
    writeFileSync(file, "not an archive at all");
    const result = await tsx("restore", [file], { SQLITE_FILE: join(dir, "site.db") });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^.*backup\.tar\.gz is damaged or incomplete \(.+\): it cannot be restored\. Use another archive\.$/,
      ),
    ]);
  }, 30_000);
});

describe("the PostgreSQL client's version", () => {
  it("refuses a pg_dump older than the server's major version, naming the package to install", () => {
    const debian15 = "pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n";
    expect(pgDumpRefusal(debian15, 150_020)).toBeNull();
    expect(pgDumpRefusal(debian15, 140_011)).toBeNull();
    expect(pgDumpRefusal(debian15, 160_004)?.message).toBe(
      "/usr/bin/pg_dump is version 15, older than the PostgreSQL server (16): install postgresql-client-16 and try again.",
    );
  });
});
