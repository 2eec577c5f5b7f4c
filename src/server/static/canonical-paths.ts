/**
 * One address per page: `/WESERVE` and `/weserve/` answer 301 to `/weserve`,
 * so links and search engines settle on the canonical path. Only the site's
 * pages are rewritten; files and the API keep their paths.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { PAGE_PATHS } from "../../shared/routes.ts";

const PAGES = new Set(PAGE_PATHS);
/** Cheap first test, so the common request pays nothing more. */
const MAYBE_ODD = /[A-Z]|.\/$/;

/** The canonical page path a request path stands for, or null when it is not a page. */
function canonicalPagePath(path: string): string | null {
  const canonical = path.toLowerCase().replace(/\/+$/, "") || "/";
  return canonical !== path && PAGES.has(canonical) ? canonical : null;
}

export default fp(
  async function canonicalPaths(app: FastifyInstance) {
    app.addHook("onRequest", async (request, reply) => {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      const query = request.url.indexOf("?");
      const path = query === -1 ? request.url : request.url.slice(0, query);
      if (!MAYBE_ODD.test(path)) return;
      const canonical = canonicalPagePath(path);
      if (canonical) {
        return reply.redirect(`${canonical}${query === -1 ? "" : request.url.slice(query)}`, 301);
      }
    });
  },
  { name: "canonical-paths" },
);
