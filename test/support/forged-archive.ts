/**
 * Archives as a forger would write them: any entry a tar can hold (links,
 * devices, any mode, any path, a size the header claims), behind a manifest
 * that lists the files the test chooses. The tar is put together block by
 * block with node-tar's own header encoder, so nothing on the way tidies up
 * what the test asks for.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";

const BLOCK = 512;

export type EntryType =
  | "File"
  | "Directory"
  | "SymbolicLink"
  | "Link"
  | "CharacterDevice"
  | "BlockDevice"
  | "FIFO"
  | "SolarisACL";

export interface ForgedEntry {
  path: string;
  type?: EntryType;
  mode?: number;
  body?: Buffer | string;
  linkpath?: string;
  /** The size its header claims, when not its body's. */
  claimedSize?: number;
  /** Left out of the manifest. */
  unlisted?: boolean;
  /** What the manifest says of it instead of its own size and checksum (a link listed as its target). */
  listedAs?: { size: number; sha256: string };
  /** An extended (pax) header before it, saying what its own header does not. */
  extended?: { linkpath?: string };
}

/** The manifest's facts (engine, schema, …) and the database file of a real archive, to build on. */
export interface ArchiveBase {
  facts: Record<string, unknown>;
  databasePath: string;
  database: Buffer;
}

export const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

export async function baseOf(archive: string): Promise<ArchiveBase> {
  const dir = mkdtempSync(join(tmpdir(), "forge-base-"));
  await tar.extract({ file: archive, cwd: dir });
  const { files: _files, ...facts } = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  const databasePath = String(facts.database);
  return { facts, databasePath, database: readFileSync(join(dir, databasePath)) };
}

function padded(bytes: Buffer): Buffer {
  const rest = bytes.length % BLOCK;
  return rest === 0 ? bytes : Buffer.concat([bytes, Buffer.alloc(BLOCK - rest)]);
}

function encoded(entry: ForgedEntry): Buffer {
  const type = entry.type ?? "File";
  const body = Buffer.from(entry.body ?? "");
  const header = new tar.Header({
    path: entry.path,
    mode: entry.mode ?? (type === "Directory" ? 0o755 : 0o644),
    size: entry.claimedSize ?? body.length,
    type,
    linkpath: entry.linkpath ?? "",
    mtime: new Date("2026-11-27T03:00:00.000Z"),
    uid: 0,
    gid: 0,
    uname: "",
    gname: "",
  });
  const needsPax = header.encode();
  const block = header.block ?? Buffer.alloc(BLOCK);
  const pax =
    needsPax || entry.extended
      ? new tar.Pax({ ...(needsPax ? { path: entry.path } : {}), ...entry.extended }).encode()
      : Buffer.alloc(0);
  return Buffer.concat([pax, block, padded(body)]);
}

/** The folders every archive of the site holds, and its database, as the site's backup writes them. */
export function usualEntries(base: ArchiveBase): ForgedEntry[] {
  return [
    { path: "database/", type: "Directory" },
    { path: base.databasePath, body: base.database },
    { path: "mail/", type: "Directory" },
    { path: "media/", type: "Directory" },
    { path: "media/insight/", type: "Directory" },
  ];
}

export interface ForgeOptions {
  /** Bytes after the tar's end (inside the gzip stream). */
  trailing?: Buffer;
  /** Replaces the manifest's text. */
  manifest?: string;
  /** Gzips the gzipped tar once more. */
  twice?: boolean;
}

/** Writes the forged archive to a new folder; returns its path. */
export function forgeArchive(
  base: ArchiveBase,
  entries: ForgedEntry[],
  { trailing, manifest, twice }: ForgeOptions = {},
): string {
  const files = entries
    .filter((entry) => (entry.type ?? "File") !== "Directory" && !entry.unlisted)
    .filter((entry) => entry.listedAs || (entry.type ?? "File") === "File")
    .map((entry) => {
      const body = Buffer.from(entry.body ?? "");
      return {
        path: entry.path,
        ...(entry.listedAs ?? { size: body.length, sha256: sha256(body) }),
      };
    });
  const text = manifest ?? JSON.stringify({ ...base.facts, files }, null, 2);
  const tarBytes = Buffer.concat([
    encoded({ path: "manifest.json", body: text }),
    ...entries.map(encoded),
    Buffer.alloc(2 * BLOCK),
    trailing ?? Buffer.alloc(0),
  ]);
  const file = join(mkdtempSync(join(tmpdir(), "forged-")), "forged.tar.gz");
  const gzipped = gzipSync(tarBytes);
  writeFileSync(file, twice ? gzipSync(gzipped) : gzipped);
  return file;
}
