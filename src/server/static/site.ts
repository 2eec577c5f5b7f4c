/**
 * Serves the built site's files: hashed assets, images, videos and other
 * public files, with their precompressed .br and .gz variants. Pages are
 * rendered by pages/plugin.ts.
 */
import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=86400";

function cacheControlFor(path: string): string {
  // Vite writes content-hashed file names under assets/: they never change.
  if (/[\\/]assets[\\/]/.test(path)) return ASSET_CACHE_CONTROL;
  return PUBLIC_FILE_CACHE_CONTROL;
}

export default async function site(app: FastifyInstance, { root }: { root: string }) {
  // `npm run dev` serves the site from Vite; the API server then runs without a build.
  if (!existsSync(root)) {
    app.log.warn({ root }, "no built site files; serving the API only (npm run build makes them)");
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    globIgnore: ["**/*.br", "**/*.gz"],
    setHeaders: (res, path) => {
      res.setHeader("Cache-Control", cacheControlFor(path));
    },
  });
}
