/**
 * A tampered archive cannot smuggle anything into the site. A restore reads
 * the archive once, as a stream, and refuses, before it writes anything
 * where the site reads (the media and mail folders, the database): a link,
 * a device, a FIFO or an entry of another kind; a mode beyond 0755 (never
 * setuid, setgid or sticky, never writable by others); a path that is not
 * plain, or one seen twice; a file its manifest does not list, or of
 * another size or checksum. It never writes more than its caps allow: the
 * whole size (BACKUP_RESTORE_MAX_MB), the number of entries, a path's
 * length, the manifest's size, a single file's size.
 */
import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteFolders } from "../../../../test/support/backup-site.ts";
import { ENGINES, openMigrated, type TestDatabase } from "../../../../test/support/engines.ts";
import {
  type ArchiveBase,
  baseOf,
  type ForgedEntry,
  forgeArchive,
  sha256,
  usualEntries,
} from "../../../../test/support/forged-archive.ts";
import { expectLinear } from "../../../../test/support/growth.ts";
import type { DatabaseHandle } from "../../platform/db/connection.ts";
import { type ArchiveLimits, manifestOf, openArchive } from "./archive.ts";
import { type BackupConfig, commandBackup, restoreArchive } from "./index.ts";

const MEGABYTE = 1024 * 1024;
const AT = Date.parse("2026-11-27T03:00:00.000Z");
const sqlite = ENGINES.find((engine) => engine.engine === "sqlite");
if (!sqlite) throw new Error("SQLite is always among the engines");

function configIn(root: string, sqliteFile: string, maxMb = 4096): BackupConfig {
  return {
    DATABASE_URL: undefined,
    SQLITE_FILE: sqliteFile,
    MEDIA_DIR: join(root, "media"),
    MAILBOX_DIR: join(root, "mail"),
    BACKUP_DIR: join(root, "backups"),
    BACKUP_RESTORE_MAX_MB: maxMb,
  };
}

/** A new place to restore into: nothing there yet, neither the database nor the folders. */
function emptyPlace(maxMb?: number): BackupConfig {
  const root = mkdtempSync(join(tmpdir(), "restore-place-"));
  return configIn(root, join(root, "data", "site.db"), maxMb);
}

/** What a restore of `file` into an empty place said, and what it left where the site reads. */
async function attempt(file: string, maxMb?: number) {
  const config = emptyPlace(maxMb);
  const outcome = await restoreArchive(config, file, { force: false }).then(
    () => "restored",
    (error: Error) => error.message,
  );
  const written = [config.MEDIA_DIR, config.MAILBOX_DIR, config.SQLITE_FILE].filter((path) =>
    existsSync(path),
  );
  return { outcome, written, config };
}

const foreign = (file: string, what: string) =>
  `${file} holds ${what}, which a backup of this site never holds: it cannot be restored. Use another archive.`;
const damaged = (file: string, detail: string) =>
  `${file} is damaged or incomplete (${detail}): it cannot be restored. Use another archive.`;

let source: TestDatabase;
let database: DatabaseHandle;
let base: ArchiveBase;

beforeAll(async () => {
  source = await sqlite.create();
  database = await openMigrated(source);
  const folders = siteFolders();
  const config = configIn(folders.root, source.env.SQLITE_FILE ?? "");
  const archive = join(folders.root, "real.tar.gz");
  await commandBackup(database, { ...config, ...folders }, { out: archive, now: () => AT });
  base = await baseOf(archive);
}, 60_000);

afterAll(async () => {
  await database.db.destroy();
  await source.drop();
});

describe("a restore refuses, before writing anything where the site reads", () => {
  it("a symbolic link to the live database, which today's restore would publish as a picture", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/db.webp", type: "SymbolicLink", linkpath: "../../site.db" },
    ]);
    const { outcome, written, config } = await attempt(file);
    const link = join(config.MEDIA_DIR, "insight", "db.webp");
    expect({
      outcome,
      written,
      link: existsSync(link) || lstatSync(link, { throwIfNoEntry: false }) !== undefined,
    }).toEqual({
      outcome: foreign(file, "a symbolic link (media/insight/db.webp)"),
      written: [],
      link: false,
    });
  });

  it("a hard link, even one its manifest lists with its target's checksum", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      {
        path: "media/insight/db.webp",
        type: "Link",
        linkpath: base.databasePath,
        listedAs: { size: base.database.length, sha256: sha256(base.database) },
      },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, "a hard link (media/insight/db.webp)"),
      written: [],
    });
  });

  it("a file whose extended header gives it a link target", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/db.webp", body: "bytes", extended: { linkpath: "../../site.db" } },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, "a link (media/insight/db.webp)"),
      written: [],
    });
  });

  it.each([
    ["CharacterDevice", "a character device"],
    ["BlockDevice", "a block device"],
    ["FIFO", "a FIFO"],
    ["SolarisACL", "an entry of kind SolarisACL"],
  ] as const)("a %s entry", async (type, what) => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/special", type },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, `${what} (media/insight/special)`),
      written: [],
    });
  });

  it("a setuid file, even when run as root: nothing is written with the mode it claims", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/run.webp", mode: 0o4755, body: "#!/bin/sh\nid\n" },
    ]);
    const { outcome, written, config } = await attempt(file);
    const target = statSync(join(config.MEDIA_DIR, "insight", "run.webp"), {
      throwIfNoEntry: false,
    });
    expect({ outcome, written, mode: target && (target.mode & 0o7777).toString(8) }).toEqual({
      outcome: foreign(file, "a file with mode 4755 (media/insight/run.webp)"),
      written: [],
      mode: undefined,
    });
  });

  it.each([
    ["a setgid file", "media/insight/group.webp", "File", 0o2755, "a file with mode 2755"],
    ["a file others may write", "media/insight/open.webp", "File", 0o666, "a file with mode 666"],
    ["a sticky folder", "media/shared/", "Directory", 0o1777, "a folder with mode 1777"],
    ["a folder its group may write", "media/group/", "Directory", 0o775, "a folder with mode 775"],
  ] as const)("%s", async (_name, path, type, mode, what) => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path, type, mode, body: type === "File" ? "bytes" : "" },
    ]);
    const shown = path.endsWith("/") ? path.slice(0, -1) : path;
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, `${what} (${shown})`),
      written: [],
    });
  });

  it("a file its manifest does not list", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/extra.webp", body: "not listed", unlisted: true },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, "a file its manifest does not list (media/insight/extra.webp)"),
      written: [],
    });
  });

  it("a folder outside the archive's own three", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "elsewhere/", type: "Directory" },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, "a folder outside database/, media/ and mail/ (elsewhere)"),
      written: [],
    });
  });

  it("a file whose size differs from its manifest's, before writing a byte of it", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      {
        path: "media/insight/big.webp",
        body: Buffer.alloc(64 * 1024),
        listedAs: { size: 10, sha256: sha256("0123456789") },
      },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: damaged(file, "media/insight/big.webp does not match its checksum"),
      written: [],
    });
  });

  it.each([
    ["an absolute path", "/media/insight/a.webp"],
    ["a path that climbs out", "media/../../a.webp"],
    ["a path through .", "media/./insight/a.webp"],
    ["an empty step", "media//a.webp"],
    ["a backslash", "media\\a.webp"],
    ["a control character", "media/a\u001b[2J.webp"],
    ["a name not in Unicode's composed form", "media/cafe\u0301.webp"],
  ])("%s, in the manifest and in the tar", async (_name, path) => {
    const file = forgeArchive(base, [...usualEntries(base), { path, body: "bytes" }]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, `a path that is not plain (${JSON.stringify(path)})`),
      written: [],
    });
  });

  it("a path that is not plain in the tar alone, its manifest listing the plain one", async () => {
    const manifest = JSON.stringify({
      ...base.facts,
      files: [
        { path: base.databasePath, size: base.database.length, sha256: sha256(base.database) },
        { path: "media/insight/a.webp", size: 5, sha256: sha256("bytes") },
      ],
    });
    const file = forgeArchive(
      base,
      [...usualEntries(base), { path: "media/insight/../insight/a.webp", body: "bytes" }],
      { manifest },
    );
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, 'a path that is not plain ("media/insight/../insight/a.webp")'),
      written: [],
    });
  });

  it("the same file twice", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/a.webp", body: "same", unlisted: true },
      { path: "media/insight/a.webp", body: "same" },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, "media/insight/a.webp twice"),
      written: [],
    });
  });

  it("two names that are one after Unicode normalisation", async () => {
    const composed = "media/caf\u00e9.webp";
    const decomposed = "media/cafe\u0301.webp";
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: composed, body: "one" },
      { path: decomposed, body: "two" },
    ]);
    expect(await attempt(file)).toMatchObject({
      outcome: foreign(file, `a path that is not plain (${JSON.stringify(decomposed)})`),
      written: [],
    });
  });
});

describe("a restore's caps", () => {
  const SMALL: ArchiveLimits = {
    maxBytes: MEGABYTE,
    maxEntries: 20,
    maxPathBytes: 64,
    maxManifestBytes: 4096,
    maxFileBytes: 256 * 1024,
  };
  const tiny = (): ArchiveBase => ({ ...base, database: Buffer.from("a database") });

  function bytesUnder(dir: string): number {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  }

  async function open(file: string, limits: ArchiveLimits = SMALL) {
    const into = mkdtempSync(join(tmpdir(), "staging-"));
    const outcome = await openArchive(file, into, limits).then(
      () => "opened",
      (error: Error) => error.message,
    );
    return { outcome, written: bytesUnder(into) };
  }

  const tooLarge = (file: string, mb: string) =>
    `${file} unpacks to more than ${mb} MB, the most a restore writes (BACKUP_RESTORE_MAX_MB): it cannot be restored. If the archive is yours, raise BACKUP_RESTORE_MAX_MB and run the restore again.`;

  it("reads a manifest in time in step with how many files it lists", async () => {
    const roomy: ArchiveLimits = {
      ...SMALL,
      maxBytes: 1024 * MEGABYTE,
      maxEntries: 1_000_000,
      maxManifestBytes: 64 * MEGABYTE,
      maxPathBytes: 512,
    };
    const listing = (count: number) =>
      Buffer.from(
        JSON.stringify({
          ...base.facts,
          files: [
            { path: base.databasePath, size: 10, sha256: sha256("a database") },
            ...Array.from({ length: count }, (_, index) => ({
              path: `media/insight/${"a".repeat(40)}-${index}.webp`,
              size: 1,
              sha256: sha256(String(index)),
            })),
          ],
        }),
      );
    await expectLinear(listing, (bytes) => manifestOf(bytes, roomy), 4_000);
  });

  it("opens an archive within them", async () => {
    const file = forgeArchive(tiny(), [
      ...usualEntries(tiny()),
      { path: "media/insight/a.webp", body: Buffer.alloc(200 * 1024, 1) },
    ]);
    expect(await open(file)).toEqual({ outcome: "opened", written: 200 * 1024 + 10 });
  });

  it("refuses a gzip bomb whose manifest owns up to its size, writing nothing", async () => {
    const zeros = Buffer.alloc(2 * MEGABYTE);
    const file = forgeArchive(tiny(), [
      ...usualEntries(tiny()),
      { path: "media/insight/zeros.webp", body: zeros },
    ]);
    expect(await open(file, { ...SMALL, maxFileBytes: 4 * MEGABYTE })).toEqual({
      outcome: tooLarge(file, "1"),
      written: 0,
    });
  });

  it("refuses a gzip bomb whose manifest lies about its size, writing no more than the cap", async () => {
    const zeros = Buffer.alloc(2 * MEGABYTE);
    const file = forgeArchive(tiny(), [
      ...usualEntries(tiny()),
      { path: "media/insight/zeros.webp", body: zeros, listedAs: { size: 10, sha256: sha256("") } },
    ]);
    const { outcome, written } = await open(file);
    expect(outcome).toBe(damaged(file, "media/insight/zeros.webp does not match its checksum"));
    expect(written).toBeLessThanOrEqual(SMALL.maxBytes);
  });

  it("refuses an archive that goes on past the tar's end beyond the cap", async () => {
    const file = forgeArchive(tiny(), usualEntries(tiny()), {
      trailing: Buffer.alloc(2 * MEGABYTE),
    });
    expect((await open(file)).outcome).toBe(tooLarge(file, "1"));
  });

  it("refuses a tar compressed twice, which node-tar would unpack again past the count", async () => {
    // Random bytes do not compress: the inner gzip is longer than a tar block.
    const noise = { path: "media/insight/noise.webp", body: randomBytes(4096) };
    const file = forgeArchive(tiny(), [...usualEntries(tiny()), noise], { twice: true });
    expect(await open(file)).toEqual({
      outcome: damaged(file, "its manifest is missing or unreadable"),
      written: 0,
    });
  });

  it("refuses more entries than the cap", async () => {
    const many: ForgedEntry[] = Array.from({ length: SMALL.maxEntries }, (_, n) => ({
      path: `media/insight/${n}.webp`,
      body: String(n),
    }));
    const file = forgeArchive(tiny(), [...usualEntries(tiny()), ...many]);
    expect(await open(file)).toEqual({
      outcome: foreign(file, "more than 20 entries"),
      written: 0,
    });
  });

  it("refuses a path longer than the cap", async () => {
    const path = `media/insight/${"a".repeat(60)}.webp`;
    const file = forgeArchive(tiny(), [...usualEntries(tiny()), { path, body: "bytes" }]);
    expect(await open(file)).toEqual({
      outcome: foreign(file, `a path longer than 64 bytes (${JSON.stringify(path.slice(0, 64))}…)`),
      written: 0,
    });
  });

  it("refuses a manifest larger than the cap, before reading it", async () => {
    const file = forgeArchive(tiny(), usualEntries(tiny()), {
      manifest: JSON.stringify({ ...tiny().facts, files: [], padding: "x".repeat(8192) }),
    });
    expect(await open(file)).toEqual({
      outcome: foreign(file, "a manifest larger than 4 KB"),
      written: 0,
    });
  });

  it("refuses a single file larger than the cap", async () => {
    const file = forgeArchive(tiny(), [
      ...usualEntries(tiny()),
      { path: "media/insight/big.webp", body: Buffer.alloc(300 * 1024, 1) },
    ]);
    expect(await open(file)).toEqual({
      outcome: foreign(file, "a file larger than 256 KB (media/insight/big.webp)"),
      written: 0,
    });
  });

  it("takes the whole cap from BACKUP_RESTORE_MAX_MB", async () => {
    const file = forgeArchive(base, [
      ...usualEntries(base),
      { path: "media/insight/zeros.webp", body: Buffer.alloc(2 * MEGABYTE) },
    ]);
    expect(await attempt(file, 1)).toMatchObject({ outcome: tooLarge(file, "1"), written: [] });
  });
});

describe("a backup", () => {
  it("is not taken when the site's files would make an archive its restore refuses", async () => {
    const folders = siteFolders();
    writeFileSync(join(folders.media, "bell\u0007.jpg"), "bytes");
    const config = { ...configIn(folders.root, source.env.SQLITE_FILE ?? ""), ...folders };
    const out = join(folders.root, "refused.tar.gz");
    await expect(commandBackup(database, config, { out, now: () => AT })).rejects.toThrow(
      `The backup cannot be taken: the site's files make an archive that holds a path that is not plain (${JSON.stringify("media/bell\u0007.jpg")}), which a restore refuses.`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
