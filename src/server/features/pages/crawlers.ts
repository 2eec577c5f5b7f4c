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
import { API_ROOT } from "../../../shared/api-paths.ts";
import type { DatedCaseStudy } from "../../../shared/content.ts";
import type { InsightSummary } from "../../../shared/insight.ts";
import {
  caseStudyPath,
  INSIGHT_FEED_PATH,
  INSIGHT_PATH,
  insightIssuePath,
  PRIVACY_PATH,
  ROUTES,
  SCREEN_PATHS,
  UNSUBSCRIBE_PATH,
} from "../../../shared/routes.ts";
import { type ContentChanges, type ContentPart, later } from "../content/index.ts";
import { ATOM_TYPE, atomFeed, escapeXml, feedIssues } from "./insight-feed.ts";

export const SITEMAP_PATH = "/sitemap.xml";
const CACHE_CONTROL = "public, max-age=3600";

/** What each screen shows of the content besides the facts every page's footer carries. */
const SCREEN_PARTS: Readonly<Record<(typeof SCREEN_PATHS)[number], readonly ContentPart[]>> = {
  [ROUTES.home]: ["facts"],
  [ROUTES.weServe]: ["case-studies", "industries", "techneeds"],
  [ROUTES.weDo]: ["capabilities"],
  [ROUTES.weAre]: ["team", "ethos"],
  [ROUTES.contactUs]: ["facts"],
};

/** A page of the sitemap, and when what it shows last changed (ISO 8601, a W3C datetime). */
export interface SitemapPage {
  path: string;
  lastmod: string | undefined;
}

/** Every page the sitemap lists, each dated by the last change of its content. */
export function sitemapPages(
  changes: ContentChanges,
  caseStudies: readonly DatedCaseStudy[],
  issues: readonly InsightSummary[],
): SitemapPage[] {
  const archiveChangedAt = later(issues[0]?.publishedAt, feedChangedAt(changes));
  return [
    ...SCREEN_PATHS.map((path) => ({
      path,
      lastmod: SCREEN_PARTS[path].map((part) => changes.parts[part]).reduce(later, undefined),
    })),
    ...caseStudies.map((study) => ({
      path: caseStudyPath(study.slug),
      lastmod: study.dateModified,
    })),
    { path: INSIGHT_PATH, lastmod: archiveChangedAt },
    { path: PRIVACY_PATH, lastmod: changes.parts.facts },
    ...issues.map((issue) => ({
      path: insightIssuePath(issue.slug),
      lastmod: issue.correctedAt ?? issue.publishedAt,
    })),
  ];
}

/**
 * When the feed's entries last changed apart from a new issue: one left, came
 * back or was corrected; else the set-up.
 */
export function feedChangedAt(changes: ContentChanges): string {
  return changes.archiveChangedAt ?? changes.setUpAt ?? EPOCH;
}

/** The time of a database no seed ran on (never served in practice: the server seeds at start). */
const EPOCH = new Date(0).toISOString();

export function sitemap(origin: string, pages: readonly SitemapPage[]): string {
  const urls = pages.map(({ path, lastmod }) => {
    const loc = `<loc>${escapeXml(new URL(path, origin).href)}</loc>`;
    return `<url>${loc}${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
  });
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
        const [changes, studies, issues] = await Promise.all([
          app.content.changes(),
          app.content.caseStudies(),
          app.content.insightIssues(),
        ]);
        return sitemap(origin, sitemapPages(changes, studies, issues));
      },
    },
    [INSIGHT_FEED_PATH]: {
      type: ATOM_TYPE,
      body: async () => {
        const [issues, changes] = await Promise.all([
          feedIssues(app.content),
          app.content.changes(),
        ]);
        return atomFeed(origin, issues, feedChangedAt(changes));
      },
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
