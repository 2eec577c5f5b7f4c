/**
 * The head of every page: unique titles and descriptions within bounds, the
 * canonical address on the public origin, and JSON-LD that holds what
 * Google's structured-data guidelines ask of each type. schema-dts checks the
 * builders' shapes at compile time; this checks the values at run time, for
 * every page, case study and leader in content/.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import type { TeamMember } from "../../shared/content.ts";
import { COLORS } from "../../shared/design-tokens.ts";
import type { InsightSummary } from "../../shared/insight.ts";
import {
  INSIGHT_FEED_PATH,
  ROUTES,
  SUBSCRIBE_PATH,
  UNSUBSCRIBE_PATH,
} from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import type { PageFacts } from "../../shared/site-facts.ts";
import {
  APPLE_TOUCH_ICON_PATH,
  type CaseStudySeo,
  caseStudyMeta,
  caseStudyMetaFor,
  caseStudyTitle,
  clampDescription,
  DESCRIPTION_MAX,
  documentTitle,
  factsFrom,
  INSIGHT_FEED_LINK,
  insightIssueMeta,
  insightIssueMetaFor,
  insightIssueTitle,
  LOGO_IMAGE,
  MANIFEST_PATH,
  NOT_FOUND_SEO,
  notFoundMeta,
  originFrom,
  PAGE_SEO,
  type PagePath,
  pageMetaFor,
  pageSeo,
  rootSeoData,
  routeMeta,
  SHARE_IMAGE,
  SITE_LINKS,
} from "./seo.ts";

const ROOT = join(import.meta.dirname, "../../..");
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

const TEAM = readJson("content/team.json") as TeamMember[];
const CASE_STUDIES = readJson("content/case-studies.json") as CaseStudySeo[];
const ORIGIN = "https://www.meridian.example";
const PAGE_PATHS = Object.keys(PAGE_SEO) as PagePath[];
/** Insight issues as the archive gives them (one summary too long for a search result). */
const ISSUES: InsightSummary[] = [
  {
    slug: "cash-forecasting-that-finance-trusts",
    title: "Cash forecasting that finance trusts",
    summary:
      "How a weekly model turned receivables from a guess into a plan, and the three questions every CFO should ask their data team before the next quarter closes, with examples.",
    publishedAt: "2026-03-12T09:00:00.000Z",
  },
  {
    slug: "cloud-costs-in-2026",
    title: "Cloud costs in 2026: where the money goes",
    summary: "Most cloud bills are not too high, they are unread. Five lines worth reading.",
    publishedAt: "2026-02-10T09:00:00.000Z",
  },
];
/** The site facts as the seed (content/site.json) gives them to the database. */
const FACTS: PageFacts = SITE;

/** A page's meta as its route builds it: Who We Are with its leaders. */
const metaOf = (path: PagePath, origin = ORIGIN, facts = FACTS) =>
  pageMetaFor(path, origin, facts, path === ROUTES.weAre ? { people: TEAM } : {});

/** Every page and case study, with the path it lives at. */
const ALL_PAGES: { name: string; path: string; meta: MetaDescriptor[] }[] = [
  ...PAGE_PATHS.map((path) => ({ name: path, path, meta: metaOf(path) })),
  ...CASE_STUDIES.map((study) => ({
    name: study.slug,
    path: `/weserve/case-studies/${study.slug}`,
    meta: caseStudyMetaFor(study, ORIGIN, FACTS),
  })),
  ...ISSUES.map((issue) => ({
    name: issue.slug,
    path: `/insight/${issue.slug}`,
    meta: insightIssueMetaFor(issue, ORIGIN, FACTS),
  })),
];

/** The pages that are articles: each case study and each Insight issue. */
const isArticle = (path: string) =>
  path.startsWith("/weserve/case-studies/") || path.startsWith("/insight/");

type Json = Record<string, unknown>;

const byName = (meta: MetaDescriptor[], name: string) =>
  meta.filter((tag) => (tag as Json).name === name).map((tag) => (tag as Json).content);
const byProperty = (meta: MetaDescriptor[], property: string) =>
  meta.filter((tag) => (tag as Json).property === property).map((tag) => (tag as Json).content);
/** The <title>: a link's title attribute (the feed's) is not one. */
const titleOf = (meta: MetaDescriptor[]) =>
  meta
    .filter((tag) => "title" in tag && !("tagName" in tag))
    .map((tag) => (tag as { title: string }).title);
const canonicalOf = (meta: MetaDescriptor[]) =>
  meta
    .filter((tag) => (tag as Json).tagName === "link" && (tag as Json).rel === "canonical")
    .map((tag) => (tag as Json).href);

/** The JSON-LD blocks as the page's <script type="application/ld+json"> carries them. */
const jsonLdOf = (meta: MetaDescriptor[]): unknown[] =>
  meta.filter((tag) => "script:ld+json" in tag).map((tag) => (tag as Json)["script:ld+json"]);

/** Paths inside a value where it is undefined, null, "", [] or {} (JSON.stringify would hide some). */
function emptyValues(value: unknown, at = "$"): string[] {
  if (value === undefined || value === null || value === "") return [at];
  if (Array.isArray(value)) {
    if (value.length === 0) return [at];
    return value.flatMap((item, index) => emptyValues(item, `${at}[${index}]`));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return [at];
    return entries.flatMap(([key, item]) => emptyValues(item, `${at}.${key}`));
  }
  return [];
}

/** Every string value that is an absolute address, with where it is. */
function urlsIn(value: unknown, at = "$"): { at: string; url: string }[] {
  if (typeof value === "string")
    return /^[a-z][a-z+.-]*:\/\//i.test(value) ? [{ at, url: value }] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => urlsIn(item, `${at}[${index}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => urlsIn(item, `${at}.${key}`));
  return [];
}

/** Values that must be addresses on the site (relative ones are not allowed in JSON-LD for Google). */
const SITE_URL_KEYS = new Set(["url", "@id", "image", "logo", "contentUrl", "mainEntityOfPage"]);

function siteUrlValues(value: unknown, at = "$"): { at: string; value: unknown }[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => siteUrlValues(item, `${at}[${index}]`));
  if (!value || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(SITE_URL_KEYS.has(key) && typeof item === "string"
      ? [{ at: `${at}.${key}`, value: item }]
      : []),
    ...(SITE_URL_KEYS.has(key) && Array.isArray(item)
      ? item.map((one, index) => ({ at: `${at}.${key}[${index}]`, value: one }))
      : []),
    ...siteUrlValues(item, `${at}.${key}`),
  ]);
}

const isOwnUrl = (url: string) => url.startsWith(`${ORIGIN}/`);
/** The only addresses off the site a block may name. */
const EXTERNAL_URLS = new Set([FACTS.networkUrl]);

/** Google's required or recommended properties, per type. */
const REQUIRED: Record<string, string[]> = {
  Organization: ["name", "url", "logo"],
  WebSite: ["name", "url"],
  Person: ["name", "jobTitle", "image"],
  Article: ["headline", "image", "author", "publisher"],
};

function checkBlock(block: unknown): Json {
  // As a crawler reads it: serialised, then parsed.
  const parsed = JSON.parse(JSON.stringify(block)) as Json;
  expect(parsed).toEqual(block);
  expect(emptyValues(block)).toEqual([]);
  expect(parsed["@context"]).toBe("https://schema.org");
  const type = parsed["@type"];
  expect(typeof type).toBe("string");
  for (const key of REQUIRED[type as string] ?? ["(unexpected type)"]) {
    expect(parsed, `${type} needs ${key}`).toHaveProperty([key]);
  }
  for (const { at, url } of urlsIn(parsed)) {
    if (at === "$.@context") continue;
    expect(isOwnUrl(url) || EXTERNAL_URLS.has(url), `${at} = ${url}`).toBe(true);
  }
  for (const { at, value } of siteUrlValues(parsed)) {
    expect(typeof value === "string" && isOwnUrl(value), `${at} = ${String(value)}`).toBe(true);
  }
  return parsed;
}

const blocksOfType = (meta: MetaDescriptor[], type: string) =>
  jsonLdOf(meta)
    .map(checkBlock)
    .filter((block) => block["@type"] === type);

describe("titles and descriptions", () => {
  it("gives every page and case study a title and a description of its own", () => {
    const titles = ALL_PAGES.flatMap(({ meta }) => titleOf(meta));
    const descriptions = ALL_PAGES.flatMap(({ meta }) => byName(meta, "description"));
    expect(titles).toHaveLength(ALL_PAGES.length);
    expect(descriptions).toHaveLength(ALL_PAGES.length);
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(titles).not.toContain(NOT_FOUND_SEO.title);
    expect(descriptions).not.toContain(NOT_FOUND_SEO.description);
  });

  it.each(ALL_PAGES)("$name: title and description within bounds", ({ meta }) => {
    const [title] = titleOf(meta);
    const [description] = byName(meta, "description") as string[];
    expect(
      title?.endsWith(`| ${SITE.firmName}`) || title?.startsWith(`${SITE.firmName} |`),
      title,
    ).toBe(true);
    // Case-study titles run to 84 characters; search results show about 60 of them.
    expect(title?.length).toBeGreaterThanOrEqual(15);
    expect(title?.length).toBeLessThanOrEqual(90);
    expect(description?.length).toBeGreaterThanOrEqual(50);
    expect(description?.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(description).not.toMatch(/^\s|\s$|\s{2}/);
  });

  it("keeps the titles the pages had", () => {
    expect(PAGE_SEO[ROUTES.home].title).toBe(`${SITE.firmName} | Business + Technology`);
    expect(PAGE_SEO[ROUTES.weAre].title).toBe(`Who We Are | ${SITE.firmName}`);
    expect(pageSeo(ROUTES.home, FACTS).description).toBe(FACTS.mission);
    expect(documentTitle("Contact Us")).toBe(`Contact Us | ${SITE.firmName}`);
    expect(caseStudyTitle({ title: "Finance: AR Forecast" })).toBe(
      `Finance: AR Forecast · Case study | ${SITE.firmName}`,
    );
  });

  it("describes Home by the mission the firm edits, cut at a word when it is too long", () => {
    const mission = `We pair business and technical experts ${"so every project ships ".repeat(8)}on time.`;
    const [description] = byName(metaOf(ROUTES.home, ORIGIN, { ...FACTS, mission }), "description");
    expect(description).toBe(clampDescription(mission));
    expect(description).toMatch(
      /^We pair business and technical experts so every project ships .*…$/,
    );
    const short = "Business and technology, side by side, from the first workshop on.";
    expect(
      byName(metaOf(ROUTES.home, ORIGIN, { ...FACTS, mission: short }), "description"),
    ).toEqual([short]);
  });

  it("describes a case study by its summary, cut at a word when it is too long", () => {
    for (const study of CASE_STUDIES) {
      const [description] = byName(
        caseStudyMetaFor(study, ORIGIN, FACTS),
        "description",
      ) as string[];
      if (study.summary.length <= DESCRIPTION_MAX) expect(description).toBe(study.summary);
      else {
        expect(description?.endsWith("…")).toBe(true);
        const kept = description?.slice(0, -1) ?? "";
        expect(study.summary.startsWith(kept)).toBe(true);
        expect(study.summary[kept.length]).toMatch(/[\s,;:.]/);
      }
    }
  });

  it("clampDescription keeps short text and cuts long text at a word boundary", () => {
    expect(clampDescription("  A short   text. ")).toBe("A short text.");
    const long = `${"word ".repeat(40)}end.`;
    const cut = clampDescription(long);
    expect(cut.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(cut).toMatch(/ word…$/);
    expect(clampDescription("abcdefghij klm", 12)).toBe("abcdefghij…");
    expect(clampDescription("abcdefghijklmnop", 8)).toBe("abcdefg…");
  });

  it.each([
    ["a number from its unit", "Cash forecasts improved by 38 percent across the group.", 30],
    ["a figure from what it counts", "It classifies 2.3 million customers a night.", 25],
    ["a percentage from its noun", "Downtime fell and 38% fewer shifts were lost.", 25],
  ])(
    "clampDescription never cuts %s, nor ends on a word that leads into it",
    (_what, text, max) => {
      const cut = clampDescription(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).toMatch(/[a-z]…$/);
      expect(cut).not.toMatch(/\d/);
      expect(cut).not.toMatch(/\b(?:by|and)…$/);
      expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    },
  );

  it("keeps personal pages out of search results, and only them", () => {
    for (const path of PAGE_PATHS) {
      const personal = path === UNSUBSCRIBE_PATH || path === SUBSCRIBE_PATH;
      expect(byName(metaOf(path), "robots")).toEqual(personal ? ["noindex"] : []);
    }
  });
});

describe("addresses and link previews", () => {
  it.each(ALL_PAGES)(
    "$name: canonical and og:url are the origin and the path",
    ({ path, meta }) => {
      expect(canonicalOf(meta)).toEqual([`${ORIGIN}${path}`]);
      expect(byProperty(meta, "og:url")).toEqual([`${ORIGIN}${path}`]);
    },
  );

  it.each(ALL_PAGES)("$name: Open Graph and Twitter card tags", ({ meta }) => {
    const [title] = titleOf(meta);
    const [description] = byName(meta, "description");
    const image = `${ORIGIN}${SHARE_IMAGE.path}`;
    expect(byProperty(meta, "og:title")).toEqual([title]);
    expect(byProperty(meta, "og:description")).toEqual([description]);
    expect(byProperty(meta, "og:site_name")).toEqual([SITE.firmName]);
    expect(byProperty(meta, "og:locale")).toEqual(["en_US"]);
    expect(byProperty(meta, "og:image")).toEqual([image]);
    expect(byProperty(meta, "og:image:width")).toEqual(["1200"]);
    expect(byProperty(meta, "og:image:height")).toEqual(["630"]);
    expect(byProperty(meta, "og:image:alt")).toEqual([SHARE_IMAGE.alt]);
    expect(byName(meta, "twitter:card")).toEqual(["summary_large_image"]);
    expect(byName(meta, "twitter:title")).toEqual([title]);
    expect(byName(meta, "twitter:description")).toEqual([description]);
    expect(byName(meta, "twitter:image")).toEqual([image]);
  });

  it("types case studies and Insight issues as articles and the other pages as websites", () => {
    for (const { path, meta } of ALL_PAGES) {
      expect(byProperty(meta, "og:type"), path).toEqual([isArticle(path) ? "article" : "website"]);
    }
  });

  it("dates an Insight issue's article for link previews", () => {
    for (const issue of ISSUES) {
      expect(
        byProperty(insightIssueMetaFor(issue, ORIGIN, FACTS), "article:published_time"),
      ).toEqual([issue.publishedAt]);
    }
  });

  it("names the archive's Atom feed among the links of every page, not again in a page's meta", () => {
    const feedLinks = (meta: MetaDescriptor[]) =>
      meta.filter((tag) => (tag as Json).tagName === "link" && (tag as Json).rel === "alternate");
    for (const { path, meta } of ALL_PAGES) expect(feedLinks(meta), path).toEqual([]);
    expect(SITE_LINKS).toContainEqual(INSIGHT_FEED_LINK);
    expect(INSIGHT_FEED_LINK).toMatchObject({
      rel: "alternate",
      type: "application/atom+xml",
      href: INSIGHT_FEED_PATH,
    });
  });

  it("normalises the origin it is given", () => {
    const meta = metaOf(ROUTES.weDo, "https://www.meridian.example/");
    expect(canonicalOf(meta)).toEqual([`${ORIGIN}/wedo`]);
    expect(canonicalOf(metaOf(ROUTES.home))).toEqual([`${ORIGIN}/`]);
  });
});

describe("the origin of a route's meta", () => {
  const root = (data: unknown) => [{ id: "root", loaderData: data, data }];
  const rootData = { origin: ORIGIN, facts: FACTS };

  it("comes from the root loader's data", () => {
    expect(originFrom(root({ origin: ORIGIN }))).toBe(ORIGIN);
    expect(originFrom([{ data: { origin: `${ORIGIN}/` } }, undefined])).toBe(ORIGIN);
    expect(canonicalOf(routeMeta(ROUTES.weServe, root(rootData)))).toEqual([`${ORIGIN}/weserve`]);
    const study = CASE_STUDIES[0] as CaseStudySeo;
    expect(caseStudyMeta(study, root(rootData))).toEqual(caseStudyMetaFor(study, ORIGIN, FACTS));
    const issue = ISSUES[0] as InsightSummary;
    expect(insightIssueMeta(issue, root(rootData))).toEqual(
      insightIssueMetaFor(issue, ORIGIN, FACTS),
    );
  });

  it("fails on the server when the root loader did not give it", () => {
    expect(() => originFrom(root(null))).toThrow(/rootSeoData/);
    expect(() => originFrom([])).toThrow(/rootSeoData/);
  });

  it("takes the site facts from the root loader's data, and only from there", () => {
    const edited = { ...FACTS, contactEmail: "partners@firm.example" };
    expect(factsFrom(root({ origin: ORIGIN, facts: edited }))).toEqual(edited);
    const [org] = blocksOfType(
      routeMeta(ROUTES.weDo, root({ origin: ORIGIN, facts: edited })),
      "Organization",
    );
    expect(org?.email).toBe("partners@firm.example");
    expect(() => factsFrom(root({ origin: ORIGIN }))).toThrow(/site facts/);
    expect(() => routeMeta(ROUTES.home, root({ origin: ORIGIN }))).toThrow(/site facts/);
  });

  it("rootSeoData takes PUBLIC_ORIGIN from the load context, else from the request", () => {
    const request = new Request("http://127.0.0.1:3000/weare?x=1");
    expect(rootSeoData({ request, context: { origin: `${ORIGIN}/` } })).toEqual({
      origin: ORIGIN,
    });
    expect(rootSeoData({ request })).toEqual({ origin: "http://127.0.0.1:3000" });
  });

  it("gives the not-found page a title, the organization and noindex, and no address", () => {
    const meta = notFoundMeta(root(rootData));
    expect(titleOf(meta)).toEqual([NOT_FOUND_SEO.title]);
    expect(byName(meta, "robots")).toEqual(["noindex"]);
    expect(canonicalOf(meta)).toEqual([]);
    expect(blocksOfType(meta, "Organization")).toHaveLength(1);
  });
});

describe("JSON-LD", () => {
  it.each(ALL_PAGES)(
    "$name: every block is valid and the organization is there once",
    ({ meta }) => {
      const blocks = jsonLdOf(meta).map(checkBlock);
      expect(blocks.filter((block) => block["@type"] === "Organization")).toHaveLength(1);
    },
  );

  it("describes the organization from the site facts", () => {
    const [org] = blocksOfType(metaOf(ROUTES.weDo), "Organization");
    expect(org).toMatchObject({
      "@id": `${ORIGIN}/#organization`,
      name: SITE.firmName,
      url: `${ORIGIN}/`,
      logo: { "@type": "ImageObject", url: `${ORIGIN}${LOGO_IMAGE.path}` },
      description: FACTS.mission,
      email: FACTS.contactEmail,
      contactPoint: { "@type": "ContactPoint", email: FACTS.contactEmail },
      sameAs: [FACTS.networkUrl],
    });
  });

  it("follows the facts the firm edits", () => {
    const edited: PageFacts = {
      ...FACTS,
      mission: "We help companies use the technology they already have.",
      contactEmail: "partners@firm.example",
      networkUrl: "https://www.linkedin.com/company/firm-example",
    };
    const [org] = jsonLdOf(metaOf(ROUTES.weDo, ORIGIN, edited)) as Json[];
    expect(org).toMatchObject({
      description: edited.mission,
      email: edited.contactEmail,
      contactPoint: { email: edited.contactEmail },
      sameAs: [edited.networkUrl],
    });
  });

  it("names the site on Home only", () => {
    for (const path of PAGE_PATHS) {
      expect(blocksOfType(metaOf(path), "WebSite")).toHaveLength(path === ROUTES.home ? 1 : 0);
    }
  });

  it("has a Person for each leader on Who We Are, and on no other page", () => {
    const people = blocksOfType(metaOf(ROUTES.weAre), "Person");
    expect(people.map((person) => person.name)).toEqual(TEAM.map((member) => member.fullname));
    for (const [index, member] of TEAM.entries()) {
      expect(people[index]).toMatchObject({
        jobTitle: member.title,
        description: member.bio,
        image: `${ORIGIN}/images/pictures/${member.imagePath}`,
        worksFor: { "@id": `${ORIGIN}/#organization` },
      });
      // The picture it names is one the site serves.
      expect(statSync(join(ROOT, "public/images/pictures", member.imagePath)).size).toBeGreaterThan(
        0,
      );
    }
    expect(new Set(people.map((person) => person["@id"])).size).toBe(TEAM.length);
    for (const path of PAGE_PATHS.filter((one) => one !== ROUTES.weAre)) {
      expect(blocksOfType(metaOf(path), "Person")).toEqual([]);
    }
  });

  it.each(CASE_STUDIES)("$slug: an Article by and from the organization", (study) => {
    const [article, ...others] = blocksOfType(caseStudyMetaFor(study, ORIGIN, FACTS), "Article");
    expect(others).toEqual([]);
    const url = `${ORIGIN}/weserve/case-studies/${study.slug}`;
    expect(article).toMatchObject({
      headline: study.title,
      description: study.summary,
      url,
      mainEntityOfPage: url,
      image: [`${ORIGIN}${SHARE_IMAGE.path}`],
      author: { "@type": "Organization", "@id": `${ORIGIN}/#organization`, name: SITE.firmName },
      publisher: {
        "@type": "Organization",
        "@id": `${ORIGIN}/#organization`,
        name: SITE.firmName,
        logo: { url: `${ORIGIN}${LOGO_IMAGE.path}` },
      },
    });
    // Google: a headline of at most 110 characters.
    expect(study.title.length).toBeLessThanOrEqual(110);
    // The content has no dates; an Article gets one only when its study does.
    expect("datePublished" in (article ?? {})).toBe(study.datePublished !== undefined);
  });

  it.each(ISSUES)("$slug: an Article dated when its send began", (issue) => {
    const [article, ...others] = blocksOfType(insightIssueMetaFor(issue, ORIGIN, FACTS), "Article");
    expect(others).toEqual([]);
    const url = `${ORIGIN}/insight/${issue.slug}`;
    expect(article).toMatchObject({
      headline: issue.title,
      description: issue.summary,
      datePublished: issue.publishedAt,
      url,
      mainEntityOfPage: url,
      articleSection: "Insight",
      author: { "@id": `${ORIGIN}/#organization` },
      publisher: { "@type": "Organization", name: SITE.firmName },
    });
  });

  it("describes an issue by its summary, cut for search results, and titles it as Insight's", () => {
    const [long] = ISSUES as [InsightSummary];
    const meta = insightIssueMetaFor(long, ORIGIN, FACTS);
    expect(byName(meta, "description")).toEqual([clampDescription(long.summary)]);
    expect(long.summary.length).toBeGreaterThan(DESCRIPTION_MAX);
    expect(titleOf(meta)).toEqual([`${long.title} · Insight | ${SITE.firmName}`]);
    expect(insightIssueTitle(long)).toBe(`${long.title} · Insight | ${SITE.firmName}`);
  });

  it("dates an article when its case study has a date", () => {
    const study = { ...(CASE_STUDIES[0] as CaseStudySeo), datePublished: "2024-05-01" };
    const [article] = blocksOfType(caseStudyMetaFor(study, ORIGIN, FACTS), "Article");
    expect(article?.datePublished).toBe("2024-05-01");
  });
});

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number; bytes: number } {
  const data = readFileSync(join(ROOT, "public", file));
  expect(data.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(data.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20), bytes: data.length };
}

/** test/bundle/budgets.test.ts: every image of the built site under 40 KB. */
const IMAGE_BUDGET = 40 * 1024;

describe("share image, icons and manifest", () => {
  it("serves the share image at the size the tags state", () => {
    const { width, height, bytes } = pngSize(SHARE_IMAGE.path);
    expect({ width, height }).toEqual({ width: SHARE_IMAGE.width, height: SHARE_IMAGE.height });
    expect(bytes).toBeLessThan(IMAGE_BUDGET);
  });

  it("links the manifest and the Apple touch icon", () => {
    expect(SITE_LINKS).toEqual([
      { rel: "manifest", href: MANIFEST_PATH },
      { rel: "apple-touch-icon", href: APPLE_TOUCH_ICON_PATH, sizes: "180x180" },
      INSIGHT_FEED_LINK,
    ]);
    expect(pngSize(APPLE_TOUCH_ICON_PATH)).toMatchObject({ width: 180, height: 180 });
    expect(pngSize(LOGO_IMAGE.path)).toMatchObject({ width: 512, height: 512 });
  });

  it("has a manifest whose icons exist at their stated sizes, a maskable one among them", () => {
    const manifest = readJson(`public${MANIFEST_PATH}`) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: SITE.firmName,
      short_name: SITE.shortName,
      start_url: "/",
      theme_color: COLORS.accent,
      background_color: COLORS.paper,
    });
    expect(["browser", "minimal-ui"]).toContain(manifest.display);
    for (const icon of manifest.icons) {
      const { width, height, bytes } = pngSize(icon.src);
      expect(`${width}x${height}`).toBe(icon.sizes);
      expect(icon.type).toBe("image/png");
      expect(bytes).toBeLessThan(IMAGE_BUDGET);
    }
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
    expect(manifest.icons.some((icon) => icon.purpose === "maskable")).toBe(true);
  });
});
