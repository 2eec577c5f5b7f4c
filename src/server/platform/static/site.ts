/**
 * Serves the built site's files: hashed assets, images, videos and other
 * public files, with their precompressed .br and .gz variants. Pages are
 * rendered by features/pages/plugin.ts.
 */
import { existsSync } from "node:fs";
import fastifyStatic, { type SetHeadersResponse } from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { STATIC_ROUTE } from "../ops/metrics.ts";

export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=86400";
/**
 * /favicon.ico keeps its name, so it cannot be immutable; browsers ask for it
 * on every site visit without reading the page, and the logo changes rarely.
 */
export const ICON_CACHE_CONTROL = "public, max-age=604800";

function cacheControlFor(path: string): string {
  // Vite writes content-hashed file names under assets/: they never change.
  if (/[\\/]assets[\\/]/.test(path)) return ASSET_CACHE_CONTROL;
  if (/[\\/]favicon\.ico$/.test(path)) return ICON_CACHE_CONTROL;
  return PUBLIC_FILE_CACHE_CONTROL;
}

const PRECOMPRESSED = /\.(br|gz)$/;
const hasVariants = new Map<string, boolean>();

/**
 * A file with .br/.gz variants is sent in whichever the client accepts, so
 * every answer for it, compressed or not, must say that it depends on
 * Accept-Encoding, or a shared cache hands brotli to a client that asked for
 * none. The build's files do not change while the server runs, so whether a
 * file has variants is looked up once.
 */
export function varyOnPrecompressed(res: SetHeadersResponse, path: string): void {
  let varies = hasVariants.get(path);
  if (varies === undefined) {
    varies = PRECOMPRESSED.test(path) || existsSync(`${path}.br`) || existsSync(`${path}.gz`);
    hasVariants.set(path, varies);
  }
  if (varies) res.setHeader("Vary", "Accept-Encoding");
}

export default async function site(app: FastifyInstance, { root }: { root: string }) {
  // `npm run dev` serves the site from Vite; the API server then runs without a build.
  if (!existsSync(root)) {
    app.log.warn({ root }, "no built site files; serving the API only (npm run build makes them)");
    return;
  }
  // A route per file: counted under one label, or each build would add its
  // own hashed names to the figures, without end.
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, metricsRoute: STATIC_ROUTE };
  });
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    globIgnore: ["**/*.br", "**/*.gz"],
    setHeaders: (res, path) => {
      res.setHeader("Cache-Control", cacheControlFor(path));
      varyOnPrecompressed(res, path);
    },
  });
}
