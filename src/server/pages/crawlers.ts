/**
 * What search engines read first: /robots.txt, which points to /sitemap.xml,
 * which lists every screen of the site at its public address. Personal pages
 * (unsubscribe links) and the API are not for indexing.
 */
import type { FastifyInstance } from "fastify";
import { API_ROOT } from "../../shared/api-paths.ts";
import { SCREEN_PATHS, UNSUBSCRIBE_PATH } from "../../shared/routes.ts";

export const SITEMAP_PATH = "/sitemap.xml";
const CACHE_CONTROL = "public, max-age=3600";

export function sitemap(origin: string): string {
  const urls = SCREEN_PATHS.map((path) => `<url><loc>${new URL(path, origin).href}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
}

export function robots(origin: string): string {
  return `User-agent: *
Disallow: ${API_ROOT}
Disallow: ${UNSUBSCRIBE_PATH}
Sitemap: ${new URL(SITEMAP_PATH, origin).href}
`;
}

export default async function crawlers(app: FastifyInstance, { origin }: { origin: string }) {
  const files = {
    "/robots.txt": { type: "text/plain; charset=utf-8", body: robots(origin) },
    [SITEMAP_PATH]: { type: "application/xml; charset=utf-8", body: sitemap(origin) },
  };
  for (const [path, { type, body }] of Object.entries(files)) {
    app.get(path, (_request, reply) =>
      reply.type(type).header("cache-control", CACHE_CONTROL).send(body),
    );
  }
}
