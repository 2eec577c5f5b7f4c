/**
 * Stands in for React Router's server build (build/server/index.js) in a
 * server process a test starts (SERVER_BUILD): every route renders a line
 * naming its path, as test/support/app.ts's stubRenderer does in-process,
 * so a process serves the site's pages without `npm run build`. Only what
 * react-router's createRequestHandler reads of a build is here.
 *
 * Copied into a build of a test's own (`<build>/server/index.js`), each page
 * also names that build's hashed assets (`<build>/client/assets/`), as a
 * real build's pages do.
 */
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const assetsDir = fileURLToPath(new URL("../client/assets/", import.meta.url));
const assetTags = existsSync(assetsDir)
  ? readdirSync(assetsDir)
      .filter((name) => !name.endsWith(".br") && !name.endsWith(".gz"))
      .map((name) => `<script type="module" src="/assets/${name}"></script>`)
      .join("")
  : "";
const page = (path) =>
  `<!DOCTYPE html><html><head>${assetTags}</head><body><h1>Page ${path}</h1></body></html>`;

export const entry = {
  module: {
    default: (request, status, headers) => {
      headers.set("content-type", "text/html; charset=utf-8");
      return new Response(page(new URL(request.url).pathname), { status, headers });
    },
  },
};
export const routes = {
  root: { id: "root", path: "", module: { default: () => null } },
  page: { id: "page", parentId: "root", path: "*", module: { default: () => null } },
};
export const assets = {
  entry: { module: "/entry.js", imports: [] },
  routes: {},
  url: "/manifest.js",
  version: "1",
};
export const publicPath = "/";
export const assetsBuildDirectory = "build/client";
export const future = {};
export const isSpaMode = false;
export const ssr = true;
export const prerender = [];
export const basename = "/";
export const routeDiscovery = { mode: "lazy", manifestPath: "/__manifest" };
