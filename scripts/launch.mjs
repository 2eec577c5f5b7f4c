/**
 * `npm start` and the site's commands: runs a program of the built server
 * (`node scripts/launch.mjs main.js`, `… cli/admin.js create --email …`)
 * in this very process, so a supervisor's signal reaches the server itself.
 *
 * The build is made first only when it is missing or older than the
 * sources, so a restart serves at once. Without the build tools (an install
 * with production dependencies only) a stale build is served as it is, and
 * a missing one is a refusal that says how to make it.
 *
 * Asking for the usage (--help, -h) or the version (--version) never builds
 * or starts anything: the version is package.json's, and the usage is the
 * program's own, from the build as it is, or from its source where there is
 * no build and the sources can be run (tsx is installed).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import module from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUILD_LINK, buildState } from "./build-state.mjs";

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error(
    "Usage: node scripts/launch.mjs <program under src/server, e.g. main.js> [arguments]",
  );
  process.exit(1);
}

/** The package this launcher belongs to: its version, and its sources for a usage without a build. */
const packageRoot = fileURLToPath(new URL("..", import.meta.url));

if (args.includes("--version")) {
  const { version } = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
  console.log(version);
  process.exit(0);
}
const asksForUsage = args.includes("--help") || args.includes("-h");

const state = buildState();
// With no build, the program's usage comes from its source, run through tsx.
const tsxLoader = join(packageRoot, "node_modules", "tsx", "dist", "loader.mjs");
if (asksForUsage && state === "missing" && existsSync(tsxLoader)) {
  const source = join(packageRoot, "src", "server", `${program.slice(0, -".js".length)}.ts`);
  const sourceArgs = ["--import", pathToFileURL(tsxLoader).href, source, ...args];
  const shown = spawnSync(process.execPath, sourceArgs, { stdio: "inherit" });
  process.exit(shown.status ?? 1);
}
if (state !== "current") {
  const canBuild = existsSync(join("node_modules", ".bin", "react-router"));
  if (canBuild) {
    // A usage is shown from the build as it is: a build takes minutes, and changes files.
    if (!asksForUsage) {
      console.error(
        state === "missing" ? "No build yet: building." : "The sources changed: building.",
      );
      const built = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
      if (built.status !== 0) process.exit(built.status ?? 1);
    }
  } else if (state === "missing") {
    console.error(
      "There is no build, and this install has no build tools (npm ci --omit=dev). " +
        "Build where the development dependencies are installed (npm ci && npm run build) and copy build/ and .builds/ here, " +
        "or run npm ci here.",
    );
    process.exit(1);
  } else {
    console.error(
      "The sources are newer than the build, and this install cannot build: serving the build as it is.",
    );
  }
}

// Node 22 and later keep the compiled code of the modules on disk between
// starts, which makes a restart load them faster.
module.enableCompileCache?.();

// The build's real directory: a later build switches the link, not these files.
const entry = realpathSync(join(BUILD_LINK, "node", "src", "server", program));
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
