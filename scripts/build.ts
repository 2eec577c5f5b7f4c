/**
 * `npm run build`: the site, the console and the server, built into a new
 * directory under .builds/; when every step has finished, `build` is
 * switched to it in one rename. An instance running from the build before
 * keeps serving its own files (it resolved the link when it started), and
 * a failed build leaves `build` as it was. The last few builds are kept for
 * instances that have not restarted yet.
 *
 * BUILD_DIR builds into that directory instead, with no link and no switch
 * (parallel work building side by side).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILD_LINK, BUILD_STAMP, BUILDS_DIR, switchBuildTo } from "./build-state.mjs";

const USAGE = `Usage: npm run build [-- --help]

Builds the site, the console and the server into a new directory under
${BUILDS_DIR}/ and points ${BUILD_LINK} at it once every step has finished;
BUILD_DIR=<dir> builds into that directory instead, with no link.`;

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}

/** Builds kept besides the newest: instances started from them still serve. */
const KEPT_BUILDS = 3;

function run(command: string, args: string[], buildDir: string) {
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, BUILD_DIR: buildDir },
  });
  if (result.status !== 0) {
    console.error(`build failed at: ${command} ${args.join(" ")}`);
    process.exit(result.status ?? 1);
  }
}

function buildInto(dir: string) {
  const bin = (name: string) => join("node_modules", ".bin", name);
  run(bin("react-router"), ["build"], dir);
  run(bin("vite"), ["build", "-c", "vite.admin.config.ts", "--logLevel", "error"], dir);
  run(
    process.execPath,
    [bin("tsx"), "scripts/precompress.ts", join(dir, "client"), join(dir, "admin")],
    dir,
  );
  run(bin("tsc"), ["-p", "tsconfig.server.json", "--outDir", join(dir, "node")], dir);
  writeFileSync(
    join(dir, BUILD_STAMP),
    `${JSON.stringify({ builtAt: new Date().toISOString(), node: process.version }, null, 2)}\n`,
  );
}

function pruneOldBuilds(current: string) {
  const older = readdirSync(BUILDS_DIR)
    .map((name) => join(BUILDS_DIR, name))
    .filter((path) => path !== current)
    .sort()
    .reverse();
  for (const path of older.slice(KEPT_BUILDS)) rmSync(path, { recursive: true, force: true });
}

const requested = process.env.BUILD_DIR;
if (requested) {
  buildInto(requested);
} else {
  const dir = join(BUILDS_DIR, new Date().toISOString().replace(/[:.]/g, "-"));
  mkdirSync(dir, { recursive: true });
  buildInto(dir);
  switchBuildTo(dir);
  pruneOldBuilds(dir);
  console.log(`built into ${dir}; ${BUILD_LINK} points to it`);
}
