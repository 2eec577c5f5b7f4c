/**
 * What search engines and feed readers read first: /robots.txt, which points
 * to /sitemap.xml, which lists every screen, every case study and the Insight
 * archive with each published issue at its public address; and the archive's
 * Atom feed (insight-feed.ts). Personal pages (unsubscribe links) and the API
 * are not for indexing. The sitemap and the feed follow the content: they are
 * built again after a change. And what a security researcher reads first:
 * /.well-known/security.txt (RFC 9116), naming the firm's contact address
 * (SECURITY.md says what to send).
 */
import type { FastifyInstance } from "fastify";
import { API_ROOT } from "../../shared/api-paths.ts";
import {
  caseStudyPath,
  INSIGHT_FEED_PATH,
  INSIGHT_PATH,
  insightIssuePath,
  SCREEN_PATHS,
  UNSUBSCRIBE_PATH,
} from "../../shared/routes.ts";
import { ATOM_TYPE, atomFeed, escapeXml, feedIssues } from "./insight-feed.ts";

export const SITEMAP_PATH = "/sitemap.xml";
const CACHE_CONTROL = "public, max-age=3600";

/** The slugs of what has a page of its own besides the screens. */
export interface SitemapSlugs {
  caseStudies: readonly string[];
  insightIssues: readonly string[];
}

export function sitemap(origin: string, slugs: SitemapSlugs): string {
  const paths = [
    ...SCREEN_PATHS,
    ...slugs.caseStudies.map(caseStudyPath),
    INSIGHT_PATH,
    ...slugs.insightIssues.map(insightIssuePath),
  ];
  const urls = paths.map(
    (path) => `<url><loc>${escapeXml(new URL(path, origin).href)}</loc></url>`,
  );
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

export const SECURITY_TXT_PATH = "/.well-known/security.txt";
/** RFC 9116 asks for an expiry under a year away; the file is written anew on each request. */
const SECURITY_TXT_VALID_DAYS = 180;

export function securityTxt(origin: string, contactEmail: string, now = new Date()): string {
  const expires = new Date(now.getTime() + SECURITY_TXT_VALID_DAYS * 24 * 60 * 60 * 1000);
  return `Contact: mailto:${contactEmail}
Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, "Z")}
Preferred-Languages: en
Canonical: ${new URL(SECURITY_TXT_PATH, origin).href}
`;
}

export default async function crawlers(app: FastifyInstance, { origin }: { origin: string }) {
  const files = {
    "/robots.txt": { type: "text/plain; charset=utf-8", body: async () => robots(origin) },
    [SECURITY_TXT_PATH]: {
      type: "text/plain; charset=utf-8",
      body: async () => securityTxt(origin, (await app.content.facts()).contactEmail),
    },
    [SITEMAP_PATH]: {
      type: "application/xml; charset=utf-8",
      body: async () => {
        const [studies, issues] = await Promise.all([
          app.content.caseStudies(),
          app.content.insightIssues(),
        ]);
        return sitemap(origin, {
          caseStudies: studies.map((study) => study.slug),
          insightIssues: issues.map((issue) => issue.slug),
        });
      },
    },
    [INSIGHT_FEED_PATH]: {
      type: ATOM_TYPE,
      body: async () => atomFeed(origin, await feedIssues(app.content)),
    },
  };
  for (const [path, { type, body }] of Object.entries(files)) {
    app.get(path, async (_request, reply) =>
      reply
        .type(type)
        .header("cache-control", CACHE_CONTROL)
        .send(await body()),
    );
  }
}
