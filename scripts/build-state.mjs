/**
 * Where the built site is and whether it holds the sources as they are now.
 * Plain JavaScript, so that `npm start` can ask before anything is compiled,
 * and with production dependencies only.
 *
 * `build` is a link to the newest complete build under `.builds/`: each
 * build is made in a directory of its own and the link is switched when it
 * is whole, so an instance still running from the build before keeps every
 * file it serves.
 */
import {
  existsSync,
  lstatSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join, relative } from "node:path";

export const BUILD_LINK = "build";
export const BUILDS_DIR = ".builds";
/** Written last by a build: a build without it is unfinished. */
export const BUILD_STAMP = "build-info.json";

/** What the build is made from: a change to any of these makes it stale. */
const INPUTS = [
  "src",
  "public",
  "package-lock.json",
  "react-router.config.ts",
  "vite.config.ts",
  "vite.admin.config.ts",
  "tsconfig.json",
  "tsconfig.base.json",
  "tsconfig.server.json",
  "scripts/build.ts",
  "scripts/precompress.ts",
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** The newest change among the build's inputs under `root`, in epoch ms. */
export function newestInput(root = ".") {
  return Math.max(...INPUTS.map((input) => newestChange(join(root, input))));
}

/**
 * "current" when `build` holds a finished build newer than every input,
 * "stale" when it holds an older one, "missing" when there is none.
 */
export function buildState(root = ".") {
  let builtAt;
  try {
    builtAt = statSync(join(root, BUILD_LINK, BUILD_STAMP)).mtimeMs;
  } catch {
    return "missing";
  }
  return newestInput(root) <= builtAt ? "current" : "stale";
}

/**
 * Points `build` at `dir` (a finished build under `.builds/`) in one rename,
 * so no reader ever finds it missing. A `build` directory from before the
 * links is kept as one of the builds.
 */
export function switchBuildTo(dir, root = ".") {
  const link = join(root, BUILD_LINK);
  if (existsSync(link) && !lstatSync(link).isSymbolicLink()) {
    renameSync(link, join(root, BUILDS_DIR, "0-before-links"));
  }
  const next = `${link}.next`;
  rmSync(next, { force: true });
  symlinkSync(relative(root, join(root, dir)), next);
  renameSync(next, link);
}
