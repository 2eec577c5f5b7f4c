/**
 * The public site: its pages rendered from the current content, the forms
 * posted without JavaScript, the API the pages call (/api/v1), and the
 * crawlers' files. What the rest of the server may use of this feature.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import api from "./api.ts";
import crawlers from "./crawlers.ts";
import pages, { type PagesOptions } from "./plugin.ts";

export default fp(
  async function publicSite(app: FastifyInstance, options: PagesOptions) {
    await app.register(pages, options);
    await app.register(crawlers, { origin: options.origin });
    await app.register(api);
  },
  { name: "public-site", dependencies: ["audience", "content", "inquiries", "subscriptions"] },
);

export { SITEMAP_PATH } from "./crawlers.ts";
export { FORM_BODY_LIMIT, FORM_CACHE_CONTROL } from "./form-posts.ts";
export { ATOM_TYPE } from "./insight-feed.ts";
export { HTML_CACHE_CONTROL } from "./plugin.ts";
export { loadPageRenderer, type PageRenderer } from "./renderer.ts";
