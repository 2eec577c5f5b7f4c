/**
 * Serves the built site: prerendered pages, hashed assets and public files.
 * Any other path outside /api/ shows the Home page with status 404 (ADR 002).
 */
import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { API_ROOT } from "../../shared/api-paths.ts";
import { NOT_FOUND_PATH } from "../../shared/routes.ts";

export const HTML_CACHE_CONTROL = "no-cache";
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=86400";
/** Prerendered for the catch-all route: Home, answered with 404 (ADR 002). */
const NOT_FOUND_PAGE = `${NOT_FOUND_PATH.slice(1)}/index.html`;

function cacheControlFor(path: string): string {
  if (path.endsWith(".html")) return HTML_CACHE_CONTROL;
  // Vite writes content-hashed file names under assets/: they never change.
  if (/[\\/]assets[\\/]/.test(path)) return ASSET_CACHE_CONTROL;
  return PUBLIC_FILE_CACHE_CONTROL;
}

export default async function site(app: FastifyInstance, { root }: { root: string }) {
  // `npm run dev` serves the pages from Vite; the API server then runs without a build.
  const built = existsSync(root);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      // The not-found page is sent only with status 404, never at its own path.
      globIgnore: ["**/*.br", "**/*.gz", `${NOT_FOUND_PATH.slice(1)}/**`],
      setHeaders: (res, path) => {
        res.setHeader("Cache-Control", cacheControlFor(path));
      },
    });
  } else {
    app.log.warn({ root }, "no built site; serving the API only (npm run build makes it)");
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith(API_ROOT)) {
      throw app.httpErrors.notFound(`No API route ${request.method} ${request.url}`);
    }
    if (!built || (request.method !== "GET" && request.method !== "HEAD")) {
      throw app.httpErrors.notFound("Not found");
    }
    return reply.code(404).sendFile(NOT_FOUND_PAGE);
  });
}
