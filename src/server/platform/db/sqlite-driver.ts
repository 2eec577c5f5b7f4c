/**
 * Which build of better-sqlite3 this Node loads.
 *
 * better-sqlite3 12 is compiled against Node's own C++ headers. From Node 24.19
 * those headers make every statement remove a cleanup hook when the garbage
 * collector frees it, and Node aborts the process ("Assertion failed: (env) !=
 * nullptr") when that happens outside a JavaScript context, as an idle GC does.
 * better-sqlite3 13 is built on Node-API and ships its binaries, so it has no
 * such hook, but it needs Node 22 and crashes on Node 20. package.json therefore
 * holds both: 12 as better-sqlite3 for Node 20, 13 as the optional dependency
 * better-sqlite3-napi, which npm installs only where the running Node is 22 or
 * later. Drop 12 when Node 20 is dropped.
 *
 * Either way, every connection opened with it overwrites what it deletes
 * (secure_delete): a person erased on request must not stay readable in the
 * file's free space, nor in a copy of the file (ADR 067).
 */
import { createRequire } from "node:module";
import type SQLite from "better-sqlite3";

const FIRST_NODE_API_MAJOR = 22;
const NODE_API_PACKAGE = "better-sqlite3-napi";
const NATIVE_HEADERS_PACKAGE = "better-sqlite3";

export function sqliteDriverPackage(nodeVersion: string): string {
  const major = Number(nodeVersion.split(".")[0]);
  return major >= FIRST_NODE_API_MAJOR ? NODE_API_PACKAGE : NATIVE_HEADERS_PACKAGE;
}

/** The driver's connections, each with secure_delete on from the moment it opens. */
function secureDeleting(Driver: typeof SQLite): typeof SQLite {
  return class SecureDeletingDatabase extends Driver {
    constructor(...args: ConstructorParameters<typeof SQLite>) {
      super(...args);
      this.pragma("secure_delete = ON");
    }
  } as typeof SQLite;
}

function loadDriver(): typeof SQLite {
  const name = sqliteDriverPackage(process.versions.node);
  try {
    return secureDeleting(createRequire(import.meta.url)(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(
      `Node ${process.versions.node} needs the SQLite driver ${name}, which is not installed: run npm ci with this Node`,
    );
  }
}

/** better-sqlite3's Database class, loaded once on first use. */
let driver: typeof SQLite | undefined;
export function sqliteDriver(): typeof SQLite {
  driver ??= loadDriver();
  return driver;
}
