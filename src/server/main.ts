/**
 * Starts the built site (start.ts); the pages come from the server build.
 *
 * The env file is read before any other module loads: React and react-dom
 * each pick their development or production build from NODE_ENV when first
 * loaded, and react-dom's page renderer loads only with the server build, so
 * a NODE_ENV the file sets after React had loaded would pair the two builds
 * and every page would fail.
 */
import { commandLine, runCommand } from "./cli/command-line.ts";
import { readEnvFile } from "./platform/config.ts";

const USAGE = `Usage: npm start [-- --help | --version]

Serves the site and the console (/admin) on HOST:PORT (0.0.0.0:3000 unless
set), building first when the build is missing or older than the sources.
Every setting comes from the environment and the env file (.env, or the file
ENV_FILE names); docs/operations/configuration.md lists them. SIGTERM or
SIGINT stops it gracefully. --version prints the site's version.`;

runCommand(async () => {
  commandLine(USAGE, { options: {} });
  readEnvFile();
  const [{ loadPageRenderer }, { startOrExit, startSite }] = await Promise.all([
    import("./features/pages/index.ts"),
    import("./start.ts"),
  ]);
  startOrExit(() => startSite({ renderer: (config) => loadPageRenderer(config.SERVER_BUILD) }));
});
