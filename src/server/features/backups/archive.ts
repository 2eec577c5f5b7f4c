/**
 * The backup archive (ADR 046): one gzipped tar holding `manifest.json`,
 * the database (`database/site.db` or `database/postgres.dump`), and the
 * `media/` and `mail/` folders. The manifest names every other file with
 * its size and SHA-256, and says which schema, engine and site version
 * wrote it. An archive is written under a `.partial` name and renamed when
 * complete, so a half-written one never carries the final name; reading
 * one extracts it and checks every file against the manifest before
 * anything is restored.
 */
import { createHash } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { z } from "zod";
import { BackupRefusal } from "./refusal.ts";

export const MANIFEST = "manifest.json";
const ARCHIVE_FORMAT = 1;
/** Names of the folders inside an archive. */
export const FOLDERS = { media: "media", mail: "mail" } as const;
export const DATABASE_FOLDER = "database";

/** A picture still being written (platform/media/atomic-write.ts) is left out. */
const PARTIAL_SUFFIX = ".part";

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  createdAt: z.string(),
  engine: z.enum(["sqlite", "postgres"]),
  schemaVersion: z.string().min(1),
  appVersion: z.string(),
  /** The row of the `backups` table that records this archive, when there was one. */
  recordId: z.number().int().nullable(),
  database: z.string(),
  files: z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string() }).array(),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFacts = Omit<Manifest, "format" | "files">;

/** Every file under `dir`, as paths relative to it with forward slashes. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * Copies a folder's files into the stage (a clone where the file system
 * can make one). A missing folder is an empty one: a site that never
 * received an upload has none.
 */
export async function stageFolder(from: string, stage: string, name: string): Promise<void> {
  const into = join(stage, name);
  await mkdir(into, { recursive: true });
  let files: string[];
  try {
    files = await filesUnder(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const file of files) {
    if (file.endsWith(PARTIAL_SUFFIX)) continue;
    const target = join(into, file);
    await mkdir(join(target, ".."), { recursive: true });
    try {
      await copyFile(join(from, file), target, constants.COPYFILE_FICLONE);
    } catch (error) {
      // Removed between the listing and the copy (an erased subscriber's mail, say).
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/**
 * Writes the archive of a filled stage to `out`: the manifest first, with
 * the checksum of every staged file, then the files. Returns its size.
 */
export async function writeArchive(stage: string, facts: ManifestFacts, out: string) {
  const files = [];
  for (const path of await filesUnder(stage)) {
    const full = join(stage, path);
    files.push({ path, size: (await stat(full)).size, sha256: await sha256Of(full) });
  }
  const manifest: Manifest = { format: ARCHIVE_FORMAT, ...facts, files };
  await writeFile(join(stage, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const partial = `${out}.partial`;
  await mkdir(join(out, ".."), { recursive: true });
  try {
    // The manifest first; an empty folder is kept, so a restore empties its own.
    const folders = (await readdir(stage)).filter((name) => name !== MANIFEST).sort();
    await tar.create({ gzip: true, cwd: stage, file: partial, portable: true }, [
      MANIFEST,
      ...folders,
    ]);
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { manifest, size: (await stat(out)).size };
}

/** What a damaged archive is told, whatever part of it gave way. */
function damaged(file: string, detail: string): BackupRefusal {
  return new BackupRefusal(
    `${file} is damaged or incomplete (${detail}): it cannot be restored. Use another archive.`,
  );
}

/**
 * Extracts the archive into `into` (an empty folder) and checks it: a tar
 * or gzip error, a manifest that does not parse, a file missing, added, of
 * another size or checksum each refuse it. Returns the manifest.
 */
export async function openArchive(file: string, into: string): Promise<Manifest> {
  try {
    await stat(file);
  } catch {
    throw new BackupRefusal(`There is no archive at ${file}.`);
  }
  try {
    // Read through once before writing anything: a damaged gzip or tar
    // stream fails here, and no half-extracted file is left behind.
    await tar.list({ file, strict: true });
    await tar.extract({ file, cwd: into, strict: true });
  } catch (error) {
    throw damaged(file, (error as Error).message);
  }
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(await readFile(join(into, MANIFEST), "utf8")));
  } catch {
    throw damaged(file, "its manifest is missing or unreadable");
  }
  const listed = new Set(manifest.files.map((entry) => entry.path));
  const found = (await filesUnder(into)).filter((path) => path !== MANIFEST);
  const extra = found.find((path) => !listed.has(path));
  if (extra) throw damaged(file, `${extra} is not in its manifest`);
  const present = new Set(found);
  for (const entry of manifest.files) {
    if (!present.has(entry.path)) throw damaged(file, `${entry.path} is missing`);
    const full = join(into, entry.path);
    const size = (await stat(full)).size;
    if (size !== entry.size || (await sha256Of(full)) !== entry.sha256) {
      throw damaged(file, `${entry.path} does not match its checksum`);
    }
  }
  return manifest;
}
