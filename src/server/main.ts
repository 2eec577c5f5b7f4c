/**
 * Starts the built site (start.ts); the pages come from the server build.
 *
 * The env file is read before any other module loads: React and react-dom
 * each pick their development or production build from NODE_ENV when first
 * loaded, and react-dom's page renderer loads only with the server build, so
 * a NODE_ENV the file sets after React had loaded would pair the two builds
 * and every page would fail.
 */
import { readEnvFileOrExit } from "./platform/config.ts";

readEnvFileOrExit();
const [{ loadPageRenderer }, { startOrExit, startSite }] = await Promise.all([
  import("./features/pages/index.ts"),
  import("./start.ts"),
]);

startOrExit(() => startSite({ renderer: (config) => loadPageRenderer(config.SERVER_BUILD) }));
