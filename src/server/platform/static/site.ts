/**
 * Serves the built site's files: hashed assets, images, videos and other
 * public files, with their precompressed .br and .gz variants. Pages are
 * rendered by features/pages/plugin.ts. A hashed asset this instance's build
 * lacks is looked for in the other builds kept beside it (keptBuildsAssets).
 */
import { existsSync } from "node:fs";
import { access, readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
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

/** Written last into each finished build by scripts/build.ts (BUILD_STAMP in scripts/build-state.mjs). */
const BUILD_STAMP = "build-info.json";
/**
 * The most other builds a missing asset is looked for in: scripts/build.ts
 * keeps three besides the newest, and one more may be built while this
 * instance runs. Bounds the work one request for a missing asset causes.
 */
const OTHER_BUILDS_LOOKED_IN = 6;
/** Vite's hashed file names: letters, digits, `_`, `-` and dots. */
const ASSET_NAME = /^[\w.-]{1,200}$/;

function isAssetName(name: string): boolean {
  return ASSET_NAME.test(name) && !name.startsWith(".");
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where to find a hashed asset that `assetsDir` (this instance's
 * `<build>/client/assets` or `<build>/admin/assets`) lacks: the same folder
 * of another build beside this one, newest first, including builds made
 * after this instance started. While instances switch to a new build, a page
 * from one build is followed by requests for its assets that the proxy may
 * send to an instance on the other; a hashed name is given to one content
 * only, so another build's file of that name is the very file the page asked
 * for. Only a finished build (it holds BUILD_STAMP) looks beside itself, so
 * a folder that is not a build never serves its neighbours' files. Only plain
 * file names are looked up: nothing can reach outside an assets folder.
 */
export function keptBuildsAssets(assetsDir: string): (name: string) => Promise<string | undefined> {
  const part = basename(dirname(assetsDir));
  const build = dirname(dirname(assetsDir));
  const builds = dirname(build);
  const isBuild = existsSync(join(build, BUILD_STAMP));
  return async (name) => {
    if (!isBuild || !isAssetName(name)) return undefined;
    let others: string[];
    try {
      others = (await readdir(builds)).filter((other) => other !== basename(build));
    } catch {
      return undefined;
    }
    // Build folders are named by the time they were made.
    for (const other of others.sort().reverse().slice(0, OTHER_BUILDS_LOOKED_IN)) {
      const dir = join(builds, other, part, "assets");
      if (await exists(join(dir, name))) return dir;
    }
    return undefined;
  };
}

/**
 * Answers `${prefix}*` that no file of this instance's own `assetsDir`
 * answered (@fastify/static's routes for them come first) from another kept
 * build, else with the site's 404. Registered beside the @fastify/static
 * that decorates reply.sendFile, so the file goes out with its headers and
 * precompressed variants like the build's own.
 */
export function serveKeptBuildsAssets(
  app: FastifyInstance,
  { assetsDir, prefix }: { assetsDir: string; prefix: string },
): void {
  const find = keptBuildsAssets(assetsDir);
  app.get(`${prefix}*`, async (request, reply) => {
    const name = (request.params as { "*": string })["*"];
    const dir = await find(name);
    if (dir === undefined) return reply.callNotFound();
    return reply.sendFile(name, dir);
  });
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
  serveKeptBuildsAssets(app, { assetsDir: join(root, "assets"), prefix: "/assets/" });
}
