/**
 * What the site keeps on disk is readable by its own user alone: files
 * 0600, folders 0700, whatever umask it was started with (ADR 059). The
 * database holds password hashes, TOTP secrets and the signing secret; the
 * media, mail and backup folders hold pictures not yet published, mail to
 * subscribers and whole copies of the database. The server is their owner
 * and the only process that reads them (it serves the pictures itself).
 */
import {
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from "node:fs";

export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_FOLDER = 0o700;

const GROUP_AND_OTHERS = 0o077;
const STICKY = 0o1000;
/** A path where nothing is, or below a file. */
const NOTHING_THERE = new Set(["ENOENT", "ENOTDIR"]);

/**
 * Takes group's and others' access off a file or folder there, one made
 * before the site made them owner-only or by hand. Only what this process
 * owns is changed; a sticky folder (as /tmp) is shared by design and left
 * as it is.
 */
export function tighten(path: string): void {
  let found: Stats;
  try {
    found = statSync(path);
  } catch (error) {
    // Nothing there yet: what makes it makes it owner-only.
    if (NOTHING_THERE.has((error as NodeJS.ErrnoException).code ?? "")) return;
    throw error;
  }
  if (found.uid !== process.geteuid?.()) return;
  if ((found.mode & STICKY) !== 0 || (found.mode & GROUP_AND_OTHERS) === 0) return;
  chmodSync(path, found.mode & 0o700);
}

/** Makes a folder, and its missing parents, owner-only; tightens one already there. */
export function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_FOLDER });
  tighten(dir);
}

/**
 * Creates an empty owner-only file for a program that then opens it by
 * name with a mode of its own (SQLite: 0644, less the umask); tightens one
 * already there. An existing file is never opened here: closing any
 * descriptor of a SQLite file drops the locks this process holds on it.
 */
export function ownerOnlyFile(file: string): void {
  try {
    closeSync(
      openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, OWNER_ONLY_FILE),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    tighten(file);
  }
}
