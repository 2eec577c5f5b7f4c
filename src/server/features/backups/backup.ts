/**
 * Taking a backup into one archive, and restoring one (ADR 046). Both are
 * shared by the CLIs and the server's schedule; neither migrates the
 * database it reads.
 */
import { cp, mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { openDatabase } from "../../platform/db/connection.ts";
import { type HeldLock, takeSoleLock } from "../../platform/db/instance-lock.ts";
import { OWNER_ONLY_FOLDER } from "../../platform/security/owner-only.ts";
import type { PlatformConfig } from "../../platform/server-settings.ts";
import { siteVersion } from "../../platform/version.ts";
import {
  archiveLimits,
  DATABASE_FILES,
  DATABASE_FOLDER,
  FOLDERS,
  type Manifest,
  openArchive,
  stageFolder,
  writeArchive,
} from "./archive.ts";
import {
  checkSchemaKnown,
  liveData,
  restoreDatabase,
  type SnapshotSource,
  snapshotDatabase,
} from "./database-copy.ts";
import { BackupRefusal } from "./refusal.ts";
import { completeRestoredRecord } from "./rows.ts";
import type { BackupsSettings } from "./server-settings.ts";

export type BackupConfig = Pick<
  PlatformConfig & BackupsSettings,
  | "DATABASE_URL"
  | "SQLITE_FILE"
  | "MEDIA_DIR"
  | "MAILBOX_DIR"
  | "BACKUP_DIR"
  | "BACKUP_RESTORE_MAX_MB"
>;

const ARCHIVE_PREFIX = "backup-";
const ARCHIVE_SUFFIX = ".tar.gz";

/** The archive's file name: its UTC time, sortable as text, without the colons some file systems refuse. */
export function archiveName(at: Date): string {
  return `${ARCHIVE_PREFIX}${at.toISOString().replaceAll(":", "-")}${ARCHIVE_SUFFIX}`;
}

export function isArchiveName(name: string): boolean {
  return name.startsWith(ARCHIVE_PREFIX) && name.endsWith(ARCHIVE_SUFFIX);
}

export interface BackupRequest {
  /** Where the archive is written. */
  out: string;
  /** The `backups` row recording it, when the database has the table. */
  recordId: number | null;
  now: () => number;
}

export interface TakenBackup {
  file: string;
  size: number;
  manifest: Manifest;
}

/**
 * Writes one archive of the database (one moment's copy), the media and
 * the mail folder to `out`. The files are staged in a hidden folder beside
 * it, removed whatever happens.
 */
export async function takeBackup(
  source: SnapshotSource & { config: BackupConfig },
  { out, recordId, now }: BackupRequest,
): Promise<TakenBackup> {
  const { config, engine } = source;
  await mkdir(dirname(out), { recursive: true, mode: OWNER_ONLY_FOLDER });
  const stage = await mkdtemp(join(dirname(out), ".staging-"));
  try {
    await mkdir(join(stage, DATABASE_FOLDER), { mode: OWNER_ONLY_FOLDER });
    const schemaVersion = await snapshotDatabase(source, stage);
    await stageFolder(config.MEDIA_DIR, stage, FOLDERS.media);
    await stageFolder(config.MAILBOX_DIR, stage, FOLDERS.mail);
    const { manifest, size } = await writeArchive(
      stage,
      {
        createdAt: new Date(now()).toISOString(),
        engine,
        schemaVersion,
        appVersion: siteVersion(),
        recordId,
        database: DATABASE_FILES[engine],
      },
      out,
    );
    return { file: out, size, manifest };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

async function hasFiles(dir: string): Promise<boolean> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.some((entry) => entry.isFile());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Puts a restored folder where the site reads it, in place of what was there. */
async function replaceFolder(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(dirname(to), { recursive: true, mode: OWNER_ONLY_FOLDER });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await cp(from, to, { recursive: true });
  }
}

export interface RestoreOptions {
  /** Replace a database and folders that already hold a site (never one an instance runs on). */
  force: boolean;
}

/**
 * Said when an instance of the site runs on the database: it would go on
 * writing into what the restore replaces (SQLite's old file, PostgreSQL's
 * old connections), so neither a clean place nor --force lets it through.
 */
export const SITE_RUNNING_REFUSAL =
  "The site is running on this database (an instance holds its lock): stop every instance of the site, then run the restore again.";

/**
 * Restores an archive into the database and folders `config` names, after
 * reading it whole into a private staging folder, each entry checked
 * (ADR 059), then its schema (not newer than this code's) and its engine.
 * It holds the database alone throughout, refused while any instance of the
 * site runs on it (ADR 064); a place that already holds a site needs
 * `force`. Returns the archive's manifest.
 */
export async function restoreArchive(
  config: BackupConfig,
  file: string,
  { force }: RestoreOptions,
): Promise<Manifest> {
  // mkdtemp makes it 0700: only this user sees what is staged there.
  const work = await mkdtemp(join(tmpdir(), "site-restore-"));
  let sole: HeldLock | null = null;
  try {
    const manifest = await openArchive(file, work, archiveLimits(config.BACKUP_RESTORE_MAX_MB));
    checkSchemaKnown(manifest.schemaVersion);
    const place = { databaseUrl: config.DATABASE_URL, sqliteFile: config.SQLITE_FILE };
    const open = () => openDatabase(place);
    const target = open();
    let isOpen = true;
    const close = async () => {
      if (isOpen) await target.db.destroy();
      isOpen = false;
    };
    try {
      if (manifest.engine !== target.engine) {
        const configured = target.engine === "postgres" ? "PostgreSQL (DATABASE_URL)" : "SQLite";
        throw new BackupRefusal(
          `This archive holds a ${manifest.engine === "postgres" ? "PostgreSQL" : "SQLite"} database, but this site is set up for ${configured}.`,
        );
      }
      sole = await takeSoleLock(place);
      if (!sole) throw new BackupRefusal(SITE_RUNNING_REFUSAL);
      const folders = { media: config.MEDIA_DIR, mail: config.MAILBOX_DIR };
      const live = force ? null : await liveData({ ...target, config }, folders, hasFiles);
      if (live) {
        throw new BackupRefusal(
          `${live}: a restore would replace it. Stop the site, then run the restore again with --force.`,
        );
      }
      // SQLite's file is replaced by rename: no connection may hold the old one.
      if (target.engine === "sqlite") await close();
      await restoreDatabase({ ...target, config }, work, force);
    } finally {
      await close();
    }
    await replaceFolder(join(work, FOLDERS.media), config.MEDIA_DIR);
    await replaceFolder(join(work, FOLDERS.mail), config.MAILBOX_DIR);
    if (manifest.recordId !== null) {
      const restored = open();
      try {
        await completeRestoredRecord(restored.db, manifest.recordId, {
          at: manifest.createdAt,
          file: basename(file),
          size: (await stat(file)).size,
        });
      } finally {
        await restored.db.destroy();
      }
    }
    return manifest;
  } finally {
    await sole?.release();
    await rm(work, { recursive: true, force: true });
  }
}
