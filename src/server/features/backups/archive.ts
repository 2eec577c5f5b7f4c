/**
 * The backup archive (ADR 046): one gzipped tar holding `manifest.json`,
 * the database (`database/site.db` or `database/postgres.dump`), and the
 * `media/` and `mail/` folders. The manifest names every other file with
 * its size and SHA-256, and says which schema, engine and site version
 * wrote it. An archive is written under a `.partial` name and renamed when
 * complete, so a half-written one never carries the final name.
 *
 * Reading one is the way in for whoever can hand the site a file, so it
 * trusts nothing in it (ADR 059): it reads the archive once, as a stream,
 * the manifest first; checks each entry's kind, path, mode and size against
 * the manifest before writing a byte of it; writes it owner-only into a
 * private staging folder while hashing it; and stops at the first thing a
 * backup of this site never holds, or at the first byte beyond a cap.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, createReadStream, mkdirSync, openSync, writeSync } from "node:fs";
import { chmod, copyFile, mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pipeline as pipe } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar";
import { z } from "zod";
import type { Engine } from "../../platform/db/connection.ts";
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER } from "../../platform/security/owner-only.ts";
import { BackupRefusal } from "./refusal.ts";

export const MANIFEST = "manifest.json";
const ARCHIVE_FORMAT = 1;
/** Names of the folders inside an archive. */
export const FOLDERS = { media: "media", mail: "mail" } as const;
export const DATABASE_FOLDER = "database";
export const DATABASE_FILES: Record<Engine, string> = {
  sqlite: `${DATABASE_FOLDER}/site.db`,
  postgres: `${DATABASE_FOLDER}/postgres.dump`,
};

/** A picture still being written (platform/media/atomic-write.ts) is left out. */
const PARTIAL_SUFFIX = ".part";

const KILOBYTE = 1024;
const MEGABYTE = 1024 * KILOBYTE;
const TAR_BLOCK = 512;

/**
 * What a restore accepts of an archive. The whole is the operator's
 * setting (BACKUP_RESTORE_MAX_MB); the rest are far beyond what this site
 * writes, and its backup refuses to write an archive beyond them.
 */
export interface ArchiveLimits {
  /** What the archive may unpack to (its tar stream, headers included): the most a restore writes. */
  maxBytes: number;
  /** Files and folders, the manifest included. */
  maxEntries: number;
  maxPathBytes: number;
  maxManifestBytes: number;
  /** A picture or a mail file; the database is bounded by maxBytes alone. */
  maxFileBytes: number;
}

const FIXED_LIMITS = {
  maxEntries: 100_000,
  maxPathBytes: 512,
  maxManifestBytes: 32 * MEGABYTE,
  maxFileBytes: 256 * MEGABYTE,
};

export function archiveLimits(maxMegabytes: number): ArchiveLimits {
  return { ...FIXED_LIMITS, maxBytes: maxMegabytes * MEGABYTE };
}

/** The largest extended (pax) or long-name header: a longest path and the times node-tar adds. */
const MAX_META_BYTES = 8 * KILOBYTE;
/** The most of a refused path a message shows. */
const SHOWN_PATH_CHARACTERS = 64;

/** Modes beyond these (setuid, setgid, sticky, writable by others) are refused. */
const PLAIN_MODE = 0o755;

const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  createdAt: z.string(),
  engine: z.enum(["sqlite", "postgres"]),
  schemaVersion: z.string().min(1),
  appVersion: z.string(),
  /** The row of the `backups` table that records this archive, when there was one. */
  recordId: z.number().int().nullable(),
  database: z.string(),
  files: z
    .object({
      path: z.string(),
      size: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    })
    .array(),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFacts = Omit<Manifest, "format" | "files">;

/**
 * Why an archive is refused, said without the archive's name (openArchive
 * adds it): it holds what no backup of this site holds, it is damaged, or
 * it unpacks to more than the restore may write.
 */
class ArchiveFault extends Error {
  constructor(
    readonly kind: "foreign" | "damaged" | "too large",
    detail: string,
  ) {
    super(detail);
  }
}
const foreign = (what: string) => new ArchiveFault("foreign", what);
const damaged = (detail: string) => new ArchiveFault("damaged", detail);
const unreadableManifest = () => damaged("its manifest is missing or unreadable");

function sizeText(bytes: number): string {
  const [unit, size] = bytes >= MEGABYTE ? ["MB", MEGABYTE] : ["KB", KILOBYTE];
  return `${(bytes / size).toLocaleString("en-GB", { maximumFractionDigits: 1 })} ${unit}`;
}

/** A path as a message may show it: quoted, control characters escaped, cut short. */
function shown(path: string): string {
  const cut = path.length > SHOWN_PATH_CHARACTERS;
  return `${JSON.stringify(cut ? path.slice(0, SHOWN_PATH_CHARACTERS) : path)}${cut ? "…" : ""}`;
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * Whether a path is a plain relative one: steps joined by single slashes,
 * none empty, `.` or `..`, no backslash or control character, and already
 * in Unicode's composed form, so no two different names are one after
 * normalisation (on a file system that normalises, or to a person reading).
 */
function isPlain(path: string): boolean {
  if (path.normalize("NFC") !== path) return false;
  for (const step of path.split("/")) {
    if (step === "" || step === "." || step === "..") return false;
  }
  for (let at = 0; at < path.length; at += 1) {
    const code = path.charCodeAt(at);
    if (isControl(code) || path[at] === "\\") return false;
  }
  return true;
}

function checkPath(path: string, limits: Pick<ArchiveLimits, "maxPathBytes">): void {
  if (Buffer.byteLength(path) > limits.maxPathBytes) {
    throw foreign(`a path longer than ${limits.maxPathBytes} bytes (${shown(path)})`);
  }
  if (!isPlain(path)) throw foreign(`a path that is not plain (${shown(path)})`);
}

/** Whether a folder is one of the archive's own, or inside its media or mail folder. */
function isArchiveFolder(path: string): boolean {
  if (path === DATABASE_FOLDER || path === FOLDERS.media || path === FOLDERS.mail) return true;
  return path.startsWith(`${FOLDERS.media}/`) || path.startsWith(`${FOLDERS.mail}/`);
}

/** Too many entries: the count includes the manifest and every folder. */
function checkEntryCount(entries: number, limits: Pick<ArchiveLimits, "maxEntries">): void {
  if (entries > limits.maxEntries) {
    throw foreign(`more than ${limits.maxEntries.toLocaleString("en-GB")} entries`);
  }
}

/**
 * Checks what a manifest lists against the archive's layout and the caps,
 * for the restore that reads it and for the backup that writes it: each
 * path plain and in its place (the database file, or a file in the media
 * or mail folder), listed once, no picture or mail file beyond the cap.
 */
function checkListed(manifest: Manifest, limits: Omit<ArchiveLimits, "maxBytes">): void {
  checkEntryCount(manifest.files.length + 1, limits);
  const listed = new Set<string>();
  for (const { path, size } of manifest.files) {
    checkPath(path, limits);
    if (listed.has(path)) throw foreign(`${path} twice in its manifest`);
    listed.add(path);
    if (path === manifest.database) continue;
    if (!path.startsWith(`${FOLDERS.media}/`) && !path.startsWith(`${FOLDERS.mail}/`)) {
      throw foreign(`a file outside media/ and mail/ that is not its database (${path})`);
    }
    if (size > limits.maxFileBytes) {
      throw foreign(`a file larger than ${sizeText(limits.maxFileBytes)} (${path})`);
    }
  }
  if (manifest.database !== DATABASE_FILES[manifest.engine] || !listed.has(manifest.database)) {
    throw unreadableManifest();
  }
}

/**
 * The manifest an archive begins with, parsed and checked against the
 * archive's layout and the caps, the total it declares too; refused
 * (ArchiveFault) otherwise. Its size is bounded before it is read.
 */
export function manifestOf(bytes: Buffer, limits: ArchiveLimits): Manifest {
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(bytes.toString("utf8")));
  } catch {
    throw unreadableManifest();
  }
  checkListed(manifest, limits);
  const total = manifest.files.reduce((sum, file) => sum + file.size, bytes.length);
  if (total > limits.maxBytes) throw new ArchiveFault("too large", "");
  return manifest;
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

async function foldersUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).length;
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
  await mkdir(into, { recursive: true, mode: OWNER_ONLY_FOLDER });
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
    await mkdir(join(target, ".."), { recursive: true, mode: OWNER_ONLY_FOLDER });
    try {
      await copyFile(join(from, file), target, constants.COPYFILE_FICLONE);
    } catch (error) {
      // Removed between the listing and the copy (an erased subscriber's mail, say).
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/**
 * Writes the archive of a filled stage to `out`, owner-only: the manifest
 * first, with the checksum of every staged file, then the files, each
 * 0600 in the archive whatever mode it had. An archive its own restore
 * would refuse (a file name that is not plain, too many files) is not
 * written. Returns its size.
 */
export async function writeArchive(stage: string, facts: ManifestFacts, out: string) {
  const files = [];
  for (const path of await filesUnder(stage)) {
    const full = join(stage, path);
    await chmod(full, OWNER_ONLY_FILE);
    files.push({ path, size: (await stat(full)).size, sha256: await sha256Of(full) });
  }
  const manifest: Manifest = { format: ARCHIVE_FORMAT, ...facts, files };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  try {
    checkListed(manifest, FIXED_LIMITS);
    checkEntryCount(files.length + (await foldersUnder(stage)) + 1, FIXED_LIMITS);
    if (Buffer.byteLength(text) > FIXED_LIMITS.maxManifestBytes) {
      throw foreign(`a manifest larger than ${sizeText(FIXED_LIMITS.maxManifestBytes)}`);
    }
  } catch (error) {
    if (!(error instanceof ArchiveFault)) throw error;
    throw new BackupRefusal(
      `The backup cannot be taken: the site's files make an archive that holds ${error.message}, which a restore refuses.`,
    );
  }
  await writeFile(join(stage, MANIFEST), text, { mode: OWNER_ONLY_FILE });
  const partial = `${out}.partial`;
  await mkdir(join(out, ".."), { recursive: true, mode: OWNER_ONLY_FOLDER });
  try {
    // A leftover of a crash keeps its own mode when written over: made anew, it is owner-only.
    await rm(partial, { force: true });
    // The manifest first; an empty folder is kept, so a restore empties its own.
    const folders = (await readdir(stage)).filter((name) => name !== MANIFEST).sort();
    await tar.create(
      { gzip: true, cwd: stage, file: partial, portable: true, mode: OWNER_ONLY_FILE },
      [MANIFEST, ...folders],
    );
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { manifest, size: (await stat(out)).size };
}

/** What a restore says of a refused archive: the fault, with the archive's name and what to do. */
function refusalOf(file: string, fault: ArchiveFault, limits: ArchiveLimits): BackupRefusal {
  if (fault.kind === "foreign") {
    return new BackupRefusal(
      `${file} holds ${fault.message}, which a backup of this site never holds: it cannot be restored. Use another archive.`,
    );
  }
  if (fault.kind === "too large") {
    return new BackupRefusal(
      `${file} unpacks to more than ${sizeText(limits.maxBytes)}, the most a restore writes (BACKUP_RESTORE_MAX_MB): it cannot be restored. If the archive is yours, raise BACKUP_RESTORE_MAX_MB and run the restore again.`,
    );
  }
  return new BackupRefusal(
    `${file} is damaged or incomplete (${fault.message}): it cannot be restored. Use another archive.`,
  );
}

/** What each kind of tar entry is called in a refusal; the two kinds an archive holds are not here. */
const ENTRY_KINDS: Record<string, string> = {
  SymbolicLink: "a symbolic link",
  Link: "a hard link",
  CharacterDevice: "a character device",
  BlockDevice: "a block device",
  FIFO: "a FIFO",
};

/**
 * The first 512 bytes of a tar stream are its first entry's header, which
 * names the entry first: in an archive of this site, the manifest. Checked
 * on the bytes before node-tar reads them, as node-tar would decompress a
 * stream that begins like a compressed one once more, unseen by the count
 * of unpacked bytes.
 */
const FIRST_NAME = Buffer.from(`${MANIFEST}\0`);

/**
 * One pass over an archive's tar stream, fed by node-tar's parser: each
 * entry is checked, then written into the staging folder (files 0600,
 * folders 0700, never the archive's modes) while it is hashed. The first
 * fault stops it: the entries after it are neither checked nor written.
 */
class Extraction {
  fault: unknown = null;
  /** node-tar has read the two empty blocks that end a tar: what follows is not its. */
  ended = false;
  private manifest: Manifest | null = null;
  private listed = new Map<string, { size: number; sha256: string }>();
  private entries = 0;
  private seen = new Set<string>();
  private files = new Set<string>();
  private folders = new Set<string>();
  private written = new Set<string>();
  private descriptor: number | null = null;

  constructor(
    private readonly into: string,
    private readonly limits: ArchiveLimits,
  ) {}

  /** Each entry node-tar reads. */
  take(entry: tar.ReadEntry): void {
    this.guarded(() => {
      this.entries += 1;
      checkEntryCount(this.entries, this.limits);
      if (this.entries === 1) this.readManifest(entry);
      else if (entry.type === "Directory" && entry.header.type === "Directory")
        this.makeFolder(entry);
      else this.writeFile(entry);
    });
  }

  /** An entry node-tar would skip: a kind it does not know, or an extended header beyond its cap. */
  skip(entry: tar.ReadEntry): void {
    this.guarded(() => {
      if (entry.meta) throw foreign(`an extended header larger than ${sizeText(MAX_META_BYTES)}`);
      checkPath(entry.path, this.limits);
      throw foreign(`an entry of kind ${entry.header.type} (${entry.path})`);
    });
  }

  fail(error: unknown): void {
    this.fault ??= error;
  }

  /** Every file of the manifest was written whole; the manifest, for the restore. */
  finish(): Manifest {
    if (!this.manifest) throw unreadableManifest();
    for (const path of this.listed.keys()) {
      if (!this.written.has(path)) throw damaged(`${path} is missing`);
    }
    return this.manifest;
  }

  close(): void {
    if (this.descriptor !== null) closeSync(this.descriptor);
    this.descriptor = null;
  }

  private guarded(work: () => void): void {
    if (this.fault) return;
    try {
      work();
    } catch (error) {
      this.fail(error);
    }
  }

  private readManifest(entry: tar.ReadEntry): void {
    if (entry.path !== MANIFEST || entry.type !== "File" || entry.header.type !== "File") {
      throw unreadableManifest();
    }
    if (entry.size > this.limits.maxManifestBytes) {
      throw foreign(`a manifest larger than ${sizeText(this.limits.maxManifestBytes)}`);
    }
    const chunks: Buffer[] = [];
    entry.on("end", () => this.guarded(() => this.acceptManifest(Buffer.concat(chunks))));
    entry.on("data", (chunk: Buffer) => chunks.push(chunk));
  }

  private acceptManifest(bytes: Buffer): void {
    const manifest = manifestOf(bytes, this.limits);
    for (const { path, size, sha256 } of manifest.files) this.listed.set(path, { size, sha256 });
    this.manifest = manifest;
  }

  /** The path of an entry, checked, once: a second entry of one path is refused, whatever it holds. */
  private claim(path: string, what: "file" | "folder", mode: number | undefined): void {
    checkPath(path, this.limits);
    if (!Number.isInteger(mode) || (mode as number) < 0 || ((mode as number) & ~PLAIN_MODE) !== 0) {
      throw foreign(`a ${what} with mode ${mode?.toString(8) ?? "missing"} (${path})`);
    }
    if (this.seen.has(path)) throw foreign(`${path} twice`);
    this.seen.add(path);
    const steps = path.split("/");
    for (let length = 1; length < steps.length; length += 1) {
      const above = steps.slice(0, length).join("/");
      if (this.files.has(above)) throw foreign(`${above} both as a file and as a folder`);
    }
    if (what === "file" && this.folders.has(path)) {
      throw foreign(`${path} both as a file and as a folder`);
    }
  }

  /** Records a folder and those above it, made owner-only in the staging folder. */
  private makeFolderAt(path: string): void {
    if (this.folders.has(path)) return;
    mkdirSync(join(this.into, path), { recursive: true, mode: OWNER_ONLY_FOLDER });
    const steps = path.split("/");
    for (let length = 1; length <= steps.length; length += 1) {
      this.folders.add(steps.slice(0, length).join("/"));
    }
  }

  private makeFolder(entry: tar.ReadEntry): void {
    const path = entry.path.endsWith("/") ? entry.path.slice(0, -1) : entry.path;
    this.claim(path, "folder", entry.mode);
    if (!isArchiveFolder(path)) {
      throw foreign(`a folder outside database/, media/ and mail/ (${path})`);
    }
    this.makeFolderAt(path);
    entry.resume();
  }

  private writeFile(entry: tar.ReadEntry): void {
    const { path } = entry;
    if (entry.type !== "File" || entry.header.type !== "File" || entry.linkpath) {
      checkPath(path, this.limits);
      // The header's own kind, unless an extended header claims another.
      const type = entry.header.type === "File" ? String(entry.type) : entry.header.type;
      const kind = ENTRY_KINDS[type] ?? (entry.linkpath ? "a link" : `an entry of kind ${type}`);
      throw foreign(`${kind} (${path})`);
    }
    this.claim(path, "file", entry.mode);
    const listed = this.listed.get(path);
    if (!listed) throw foreign(`a file its manifest does not list (${path})`);
    this.files.add(path);
    if (entry.size !== listed.size || entry.header.size !== listed.size) {
      throw damaged(`${path} does not match its checksum`);
    }
    const parent = path.slice(0, path.lastIndexOf("/"));
    this.makeFolderAt(parent);
    // A new file, never one there nor through a link: the staging folder holds only what this pass made.
    const descriptor = openSync(
      join(this.into, path),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      OWNER_ONLY_FILE,
    );
    this.descriptor = descriptor;
    const hash = createHash("sha256");
    let size = 0;
    entry.on("end", () =>
      this.guarded(() => {
        this.close();
        if (size !== listed.size || hash.digest("hex") !== listed.sha256) {
          throw damaged(`${path} does not match its checksum`);
        }
        this.written.add(path);
      }),
    );
    entry.on("data", (chunk: Buffer) =>
      this.guarded(() => {
        hash.update(chunk);
        size += chunk.length;
        for (let at = 0; at < chunk.length; ) {
          at += writeSync(descriptor, chunk, at);
        }
      }),
    );
  }
}

/**
 * Reads the archive into `into` (an empty, private folder) and checks it
 * on the way: returns its manifest, or refuses it with one sentence
 * (BackupRefusal) before writing anything the checks have not passed.
 * Entries are written synchronously as node-tar hands them over, a gzip
 * chunk at a time: the restore runs as a command of its own.
 */
export async function openArchive(
  file: string,
  into: string,
  limits: ArchiveLimits,
): Promise<Manifest> {
  try {
    await stat(file);
  } catch {
    throw new BackupRefusal(`There is no archive at ${file}.`);
  }
  const extraction = new Extraction(into, limits);
  // Node-tar reads the headers (pax and long names included) and cuts the
  // bodies; it is not left to decompress (the stream is unpacked here, and
  // counted) nor to write anything.
  const parser = new tar.Parser({
    strict: true,
    maxMetaEntrySize: MAX_META_BYTES,
    brotli: false,
    zstd: false,
  });
  parser.on("entry", (entry: tar.ReadEntry) => extraction.take(entry));
  parser.on("ignoredEntry", (entry: tar.ReadEntry) => extraction.skip(entry));
  parser.on("error", (error: Error) => extraction.fail(damaged(error.message)));
  parser.on("eof", () => {
    extraction.ended = true;
  });
  for (const folder of Object.values(FOLDERS)) {
    mkdirSync(join(into, folder), { mode: OWNER_ONLY_FOLDER });
  }
  // Errors of the file or the gzip stream end the loop below, which reads the last stream.
  const unpacking = pipe(createReadStream(file), createGunzip(), () => {});
  let unpacked = 0;
  let head: Buffer | null = Buffer.alloc(0);
  try {
    try {
      for await (const chunk of unpacking as AsyncIterable<Buffer>) {
        unpacked += chunk.length;
        if (unpacked > limits.maxBytes) throw new ArchiveFault("too large", "");
        let bytes = chunk;
        if (head) {
          head = Buffer.concat([head, chunk]);
          if (head.length < TAR_BLOCK) continue;
          if (!head.subarray(0, FIRST_NAME.length).equals(FIRST_NAME)) throw unreadableManifest();
          bytes = head;
          head = null;
        }
        if (!extraction.ended) parser.write(bytes);
        if (extraction.fault) throw extraction.fault;
      }
    } catch (error) {
      if (error === extraction.fault || error instanceof ArchiveFault) throw error;
      // The gzip stream gave way (truncated, altered).
      throw damaged((error as Error).message);
    }
    if (head) throw unreadableManifest();
    parser.end();
    if (extraction.fault) throw extraction.fault;
    return extraction.finish();
  } catch (error) {
    if (error instanceof ArchiveFault) throw refusalOf(file, error, limits);
    throw error;
  } finally {
    extraction.close();
  }
}
