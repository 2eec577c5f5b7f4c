/**
 * What search engines and link previews read in the served pages: a unique title and description, the canonical address on
 * PUBLIC_ORIGIN, Open Graph and Twitter tags with the share image, and
 * JSON-LD: Organization everywhere, a Person per leader on /weare, an Article
 * on each case study's page. Rendered by the real server build.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caseStudyPath,
  INSIGHT_PATH,
  PRIVACY_PATH,
  SCREEN_PATHS,
} from "../../../src/shared/routes.ts";
import { startApp, type TestApp } from "../../support/app.ts";
import { ENGINES } from "../../support/engines.ts";
import { builtRenderer as renderer } from "../../support/page-renderer.ts";

const ORIGIN = "https://www.firm.example";
const team = JSON.parse(readFileSync("content/team.json", "utf8"));
const caseStudies = JSON.parse(readFileSync("content/case-studies.json", "utf8"));
const [sqlite] = ENGINES;

type Thing = Record<string, unknown> & { "@type": string };

function head(html: string) {
  const meta = (key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
  return {
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    description: meta("description"),
    canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1],
    ogUrl: meta("og:url"),
    ogImage: meta("og:image"),
    twitterCard: meta("twitter:card"),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (match) => JSON.parse(String(match[1])) as Thing,
    ),
  };
}

/** A schema.org URL on our origin (the share image, a page, a portrait), alone or first of a list. */
const ours = (value: unknown): boolean =>
  Array.isArray(value)
    ? ours(value[0])
    : typeof value === "string" && value.startsWith(`${ORIGIN}/`);

describe("search metadata of the served pages", () => {
  let t: TestApp;
  const pages = new Map<string, ReturnType<typeof head>>();
  const bodies = new Map<string, string>();
  const paths = [
    ...SCREEN_PATHS,
    ...caseStudies.map((s: { slug: string }) => caseStudyPath(s.slug)),
    INSIGHT_PATH,
    PRIVACY_PATH,
  ];

  beforeAll(async () => {
    if (!sqlite) throw new Error("SQLite engine missing");
    t = await startApp(sqlite, { PUBLIC_ORIGIN: ORIGIN }, { renderer });
    for (const path of paths) {
      const response = await t.app.inject({ url: path });
      expect(response.statusCode, path).toBe(200);
      pages.set(path, head(response.body));
      bodies.set(path, response.body);
    }
  });
  afterAll(() => t.close());

  it("gives every page its own title and description", () => {
    const all = [...pages.values()];
    expect(new Set(all.map((page) => page.title)).size).toBe(paths.length);
    expect(new Set(all.map((page) => page.description)).size).toBe(paths.length);
    for (const page of all) expect(page.description?.length).toBeLessThanOrEqual(160);
  });

  it("names each page's canonical address on PUBLIC_ORIGIN, with Open Graph and Twitter tags", () => {
    for (const [path, page] of pages) {
      const address = new URL(path, ORIGIN).href.replace(/\/$/, path === "/" ? "/" : "");
      expect(page.canonical, path).toBe(address);
      expect(page.ogUrl, path).toBe(address);
      expect(page.ogImage, path).toBe(`${ORIGIN}/images/share.png`);
      expect(page.twitterCard, path).toBe("summary_large_image");
    }
  });

  it("describes the firm on every page, each leader on /weare and each case study", () => {
    for (const [path, page] of pages) {
      for (const thing of page.jsonLd) expect(thing["@context"], path).toBe("https://schema.org");
      const organization = page.jsonLd.find((thing) => thing["@type"] === "Organization");
      expect(organization, path).toBeDefined();
      expect(ours(organization?.url)).toBe(true);
      const logo = organization?.logo as { url?: string } | string | undefined;
      expect(ours(typeof logo === "object" ? logo.url : logo)).toBe(true);
    }
    const people = pages.get("/weare")?.jsonLd.filter((thing) => thing["@type"] === "Person");
    expect(people?.map((person) => person.name)).toEqual(
      team.map((m: { fullname: string }) => m.fullname),
    );
    for (const person of people ?? []) {
      expect(person.jobTitle).toBeTruthy();
      expect(ours(person.image)).toBe(true);
    }
    for (const study of caseStudies) {
      const articles = pages
        .get(caseStudyPath(study.slug))
        ?.jsonLd.filter((thing) => thing["@type"] === "Article");
      expect(articles).toHaveLength(1);
      expect(articles?.[0]?.headline).toBe(study.title);
      expect(ours(articles?.[0]?.image)).toBe(true);
      expect(articles?.[0]?.author).toBeTruthy();
      expect(articles?.[0]?.publisher).toBeTruthy();
    }
  });

  it("dates each case study's Article by when the study was written and last changed", async () => {
    const rows = await t.database.db
      .selectFrom("case_studies")
      .select(["slug", "created_at", "updated_at"])
      .execute();
    expect(rows).toHaveLength(caseStudies.length);
    for (const row of rows) {
      const [article] =
        pages
          .get(caseStudyPath(row.slug))
          ?.jsonLd.filter((thing) => thing["@type"] === "Article") ?? [];
      expect(article?.datePublished, row.slug).toBe(new Date(row.created_at).toISOString());
      expect(article?.dateModified, row.slug).toBe(new Date(row.updated_at).toISOString());
    }
  });

  it("names the Insight feed once in every page's head, where feed readers look for it", async () => {
    const feedLink =
      /<link rel="alternate" type="application\/atom\+xml" href="\/insight\/feed\.xml" title="[^"]+"\/>/g;
    const notFound = (await t.app.inject({ url: "/no-such-page" })).body;
    for (const [path, html] of [...bodies, ["/no-such-page", notFound] as const]) {
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head.match(feedLink), path).toHaveLength(1);
    }
  });

  it("lists in the sitemap exactly the pages it serves with their canonical addresses", async () => {
    const sitemap = (await t.app.inject({ url: "/sitemap.xml" })).body;
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(listed).toEqual([...pages.values()].map((page) => page.canonical));
  });
});
