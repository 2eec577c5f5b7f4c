/**
 * How a test runs one of the server's programs as its own process: the
 * built JavaScript when `npm run build` made it from the sources as they are
 * now, or else the TypeScript sources through tsx. The built program starts
 * in about two thirds of the time, and `npm test` builds before it tests;
 * after an edit without a build the sources run, so a test never runs stale
 * code.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const SOURCES = ["src/server", "src/shared"];
const BUILD = "build/node";

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the build holds the sources as they are now: every built file is written at once. */
function isBuildCurrent(): boolean {
  let builtAt: number;
  try {
    builtAt = statSync(join(BUILD, "src/server/main.js")).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((dir) => newestSource(dir) <= builtAt);
}

let current: boolean | undefined;

/**
 * Node's arguments to run `source` (a path such as src/server/main.ts), with
 * `preload` modules (TypeScript, loaded through tsx) imported first.
 */
export function nodeArgs(source: string, preload: string[] = []): string[] {
  const preloads = preload.flatMap((module) => ["--import", module]);
  current ??= isBuildCurrent();
  if (current) {
    const script = join(BUILD, relative(".", source)).replace(/\.tsx?$/, ".js");
    return [...(preload.length > 0 ? ["--import", "tsx"] : []), ...preloads, script];
  }
  return ["--import", "tsx", ...preloads, source];
}
