/**
 * One address per page: `/WESERVE` and `/weserve/` answer 301 to `/weserve`,
 * and `/weserve/case-studies/a-study/` to `/weserve/case-studies/a-study`, so
 * links and search engines settle on the canonical path. Only the site's
 * pages are rewritten; files and the API keep their paths.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  CASE_STUDY_ROUTE,
  INSIGHT_ISSUE_ROUTE,
  PAGE_PATHS,
  slugIn,
} from "../../../shared/routes.ts";
import { trimEndWhere } from "../../../shared/trim.ts";

const PAGES = new Set(PAGE_PATHS);
/**
 * The pages of one case study or one issue: a slug (lowercase letters, digits
 * and hyphens) after the route's fixed part. Anything else, an encoded `<` for
 * one, names no page, so it is answered as unknown rather than redirected.
 */
const SLUG_ROUTES = [CASE_STUDY_ROUTE, INSIGHT_ISSUE_ROUTE];
const SLUG = /^[a-z0-9-]+$/;

function isPage(path: string): boolean {
  if (PAGES.has(path)) return true;
  return SLUG_ROUTES.some((route) => SLUG.test(slugIn(route, path) ?? ""));
}
/** Cheap first test, so the common request pays nothing more. */
const MAYBE_ODD = /[A-Z]|.\/$/;

/** The canonical page path a request path stands for, or null when it is not a page. */
function canonicalPagePath(path: string): string | null {
  const canonical = trimEndWhere(path.toLowerCase(), (character) => character === "/") || "/";
  return canonical !== path && isPage(canonical) ? canonical : null;
}

export default fp(
  async function canonicalPaths(app: FastifyInstance) {
    // A callback hook, not an async one: it runs on every request, and
    // nearly always only to find the path is fine.
    app.addHook("onRequest", (request, reply, done) => {
      if (request.method !== "GET" && request.method !== "HEAD") return done();
      const query = request.url.indexOf("?");
      const path = query === -1 ? request.url : request.url.slice(0, query);
      const canonical = MAYBE_ODD.test(path) ? canonicalPagePath(path) : null;
      if (!canonical) return done();
      reply.redirect(`${canonical}${query === -1 ? "" : request.url.slice(query)}`, 301);
    });
  },
  { name: "canonical-paths" },
);
