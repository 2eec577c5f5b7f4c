/** Starts the built site (start.ts); the pages come from the server build. */
import { loadPageRenderer } from "./features/pages/index.ts";
import { startOrExit, startSite } from "./start.ts";

startOrExit(() => startSite({ renderer: (config) => loadPageRenderer(config.SERVER_BUILD) }));
