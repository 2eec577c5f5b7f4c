/**
 * Serves the console's single-page app: its hashed assets under
 * /admin/assets/, and its one HTML file for /admin and every path below it
 * (the app routes in the browser). Nothing here is linked from the public
 * pages, so the console adds no byte to them.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ASSET_CACHE_CONTROL, serveKeptBuildsAssets, varyOnPrecompressed } from "../static/site.ts";

export const CONSOLE_PATH = "/admin";

export default async function consoleFiles(app: FastifyInstance, { root }: { root: string }) {
  const indexFile = join(root, "index.html");
  if (!existsSync(indexFile)) {
    app.log.warn({ root }, "no built console; /admin is not served (npm run build makes it)");
    return;
  }
  const html = await readFile(indexFile);
  const assetsDir = join(root, "assets");
  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: `${CONSOLE_PATH}/assets/`,
    // The build's own files get a route each; any other asset is looked for in the kept builds.
    wildcard: false,
    globIgnore: ["**/*.br", "**/*.gz"],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader("Cache-Control", ASSET_CACHE_CONTROL);
      varyOnPrecompressed(res, path);
    },
  });
  serveKeptBuildsAssets(app, { assetsDir, prefix: `${CONSOLE_PATH}/assets/` });
  const sendApp = async (_request: unknown, reply: import("fastify").FastifyReply) =>
    reply
      .header("cache-control", "no-store")
      .header("x-robots-tag", "noindex")
      .type("text/html; charset=utf-8")
      .send(html);
  app.get(CONSOLE_PATH, sendApp);
  app.get(`${CONSOLE_PATH}/*`, sendApp);
}
