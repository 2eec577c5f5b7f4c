/**
 * The pages' renderer as `npm run build` made it (TEST_SERVER_BUILD names
 * another build), for tests that read or post the real pages: loaded once
 * per test worker, and a clear failure when the build is missing.
 */
import { loadPageRenderer, type PageRenderer } from "../../src/server/features/pages/index.ts";

const SERVER_BUILD = process.env.TEST_SERVER_BUILD ?? "build/server/index.js";
const loaded = await loadPageRenderer(SERVER_BUILD);
if (!loaded) throw new Error(`${SERVER_BUILD} is missing: run npm run build first`);

export const builtRenderer: PageRenderer = loaded;
