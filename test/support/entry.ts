/**
 * How a test runs one of the server's programs as its own process: the
 * built JavaScript when `npm run build` made it from the sources as they are
 * now, or else the TypeScript sources through tsx. The built program starts
 * in about two thirds of the time, and `npm test` builds before it tests;
 * after an edit without a build the sources run, so a test never runs stale
 * code.
 */
import { join, relative } from "node:path";
import { buildState } from "../../scripts/build-state.mjs";

const BUILD = "build/node";

/** Whether the build holds the sources as they are now (scripts/build-state.mjs). */
const isBuildCurrent = () => buildState() === "current";

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
