/**
 * What search engines and link previews read: each page's title and
 * description, its canonical address, Open Graph and Twitter card tags with
 * the share image, and JSON-LD typed against schema.org (schema-dts).
 *
 * Every function here is pure and returns React Router descriptors, so a
 * route's `meta` export is one line:
 *
 *   export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.weDo, matches);
 *
 * Absolute addresses need the site's public origin. The server renders every
 * page by requesting it at PUBLIC_ORIGIN (`src/server/features/pages/renderer.ts`), so the
 * root route's loader reads it from the request and meta functions take it
 * from the root match: see `rootSeoData` and `originFrom`. The site facts the
 * firm edits (the mission, the contact address, the network link) come the
 * same way, from the root loader's `facts` (`factsFrom`).
 */
import type { LinkDescriptor, MetaDescriptor } from "react-router";
import type {
  ArticleLeaf,
  ContactPointLeaf,
  ImageObjectLeaf,
  OrganizationLeaf,
  PersonLeaf,
  Thing,
  WebSiteLeaf,
  WithContext,
} from "schema-dts";
import { sectorOf, type TeamMember } from "../../shared/content.ts";
import type { InsightSummary } from "../../shared/insight.ts";
import {
  caseStudyPath,
  INSIGHT_FEED_PATH,
  INSIGHT_PATH,
  insightIssuePath,
  PRIVACY_PATH,
  ROUTES,
  SUBSCRIBE_PATH,
  UNSUBSCRIBE_PATH,
} from "../../shared/routes.ts";
import { SITE } from "../../shared/site.ts";
import type { PageFacts } from "../../shared/site-facts.ts";
import { isSpace, trimEndWhere } from "../../shared/trim.ts";

/* ------------------------------------------------------------------ titles */

/** The pages that have a `meta` entry of their own in PAGE_SEO. */
export type PagePath =
  | (typeof ROUTES)[keyof typeof ROUTES]
  | typeof UNSUBSCRIBE_PATH
  | typeof SUBSCRIBE_PATH
  | typeof INSIGHT_PATH
  | typeof PRIVACY_PATH;

export interface PageSeo {
  /** The whole `<title>`, firm name included. */
  title: string;
  /** 50 to 160 characters: what a search result shows under the title. */
  description: string;
  /** Kept out of search results (personal pages). */
  noindex?: boolean;
}

/** A page's description: a text, or one made from the site facts (Home's is the mission). */
type DescriptionSource = string | ((facts: PageFacts) => string);

interface PageSeoSource extends Omit<PageSeo, "description"> {
  description: DescriptionSource;
}

/** `"Who We Are"` → `"Who We Are | Meridian Consulting Group"`; null is Home's title. */
export function documentTitle(title: string | null): string {
  return title ? `${title} | ${SITE.firmName}` : `${SITE.firmName} | Business + Technology`;
}

/** The title and description of every page, in one place. Each is unique (seo.test.ts). */
export const PAGE_SEO: Readonly<Record<PagePath, PageSeoSource>> = {
  [ROUTES.home]: {
    title: documentTitle(null),
    description: (facts) => clampDescription(facts.mission),
  },
  [ROUTES.weServe]: {
    title: documentTitle("Who We Serve"),
    description: `Case studies in finance, manufacturing and e-commerce, and the industries and technology needs ${SITE.firmName} serves.`,
  },
  [ROUTES.weDo]: {
    title: documentTitle("What We Do"),
    description: "Our capabilities and the method that pairs business and technical experts.",
  },
  [ROUTES.weAre]: {
    title: documentTitle("Who We Are"),
    description: `Meet the leadership of ${SITE.firmName} and the ethos behind how we pair business and technology expertise.`,
  },
  [ROUTES.contactUs]: {
    title: documentTitle("Contact Us"),
    // The contact invitation the page shows runs to 164 characters: one sentence too many for a search result.
    description:
      "Tell us what you are trying to achieve or where you are stuck. A partner will read your message and reply within two business days.",
  },
  [SUBSCRIBE_PATH]: {
    title: documentTitle("Subscribe to Insight"),
    description: `Subscribe to Insight, the newsletter of ${SITE.firmName}: one e-mail a month, and you can leave with one click.`,
    noindex: true,
  },
  [INSIGHT_PATH]: {
    title: documentTitle("Insight newsletter archive"),
    description: `Every issue of Insight, the monthly newsletter of ${SITE.firmName}: notes on data, cloud and machine learning from the people doing the work.`,
  },
  [PRIVACY_PATH]: {
    title: documentTitle("Privacy notice"),
    description: `What ${SITE.firmName} collects through its contact and newsletter forms, why, for how long, who sees it, and how to have it erased.`,
  },
  [UNSUBSCRIBE_PATH]: {
    title: documentTitle("Unsubscribe"),
    description: `Stop receiving Insight, the monthly newsletter of ${SITE.firmName}, with one click.`,
    noindex: true,
  },
};

/** A page's title and description, with the site facts as they are now. */
export function pageSeo(path: PagePath, facts: PageFacts): PageSeo {
  const { description, ...seo } = PAGE_SEO[path];
  return {
    ...seo,
    description: typeof description === "string" ? description : description(facts),
  };
}

/** The page every unknown path shows (served with status 404). */
export const NOT_FOUND_SEO: PageSeo = {
  title: documentTitle("Page not found"),
  description: `This page does not exist. Find what ${SITE.firmName} does, who it serves and how to reach us from the menu.`,
  noindex: true,
};

export const DESCRIPTION_MAX = 160;

/**
 * A word with a digit is a figure ("38", "38%", "2.3", "90-day"): the word
 * after it is often its unit or what it counts ("38 percent", "2.3 million"),
 * so a cut right after it would change what the figure says.
 */
const FIGURE = /\d/;
/** Words that lead into what follows: a description ending on one reads as broken off. */
const LEADING_WORD = /^(?:a|an|and|as|at|by|for|from|in|into|of|on|or|over|than|the|to|up|with)$/i;

function endsBadly(word: string): boolean {
  return FIGURE.test(word) || LEADING_WORD.test(word.replace(/[^\p{L}]/gu, ""));
}

/**
 * `text` as a meta description: unchanged when it fits in `max` characters,
 * otherwise cut at the last word boundary that leaves room for "…", and
 * further back while the last word kept is a figure or leads into what was
 * cut ("…forecast by 38…" becomes "…forecast…").
 */
export function clampDescription(text: string, max: number = DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const words = clean.split(" ");
  let kept = 0;
  let length = -1; // the first word needs no space before it
  while (kept < words.length && length + 1 + (words[kept]?.length ?? 0) < max) {
    length += 1 + (words[kept]?.length ?? 0);
    kept += 1;
  }
  if (kept === 0) return `${clean.slice(0, max - 1)}…`;
  while (kept > 1 && endsBadly(words[kept - 1] ?? "")) kept -= 1;
  const head = trimEndWhere(
    words.slice(0, kept).join(" "),
    (character) => isSpace(character) || ",;:.–—-".includes(character),
  );
  return `${head}…`;
}

/* ------------------------------------------------------------------ origin */

/** What the root route's loader returns for the meta functions. */
export interface RootSeoData {
  /** The site's public origin, e.g. "https://www.example.com" (no path, no trailing slash). */
  origin: string;
}

/**
 * The root loader's answer: the server's PUBLIC_ORIGIN from the load context
 * (shared/page-context.ts), else the request's own origin (the server renders
 * pages by requesting them at PUBLIC_ORIGIN; `npm run dev` at Vite's address).
 *
 *   // root.tsx: the origin, and the site facts for factsFrom
 *   export const loader = async (args: LoaderFunctionArgs) => ({
 *     ...rootSeoData(args),
 *     facts: await args.context.content.facts(),
 *   });
 *   // Never asked for again while the visitor moves on (a new page load brings new facts).
 *   export const shouldRevalidate = () => false;
 */
export function rootSeoData({
  request,
  context,
}: {
  request: Request;
  context?: { origin?: string } | undefined;
}): RootSeoData {
  return { origin: normalizeOrigin(context?.origin ?? request.url) };
}

/** Anything with the loader data of a match: React Router's `MetaMatch`, or a test's stand-in. */
type MatchWithData = { loaderData?: unknown; data?: unknown } | undefined;

function hasOrigin(value: unknown): value is RootSeoData {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { origin?: unknown }).origin === "string"
  );
}

function hasFacts(value: unknown): value is { facts: PageFacts } {
  const facts = (value as { facts?: unknown } | null | undefined)?.facts;
  return typeof facts === "object" && facts !== null;
}

/** "https://example.com/" or "https://example.com/x" → "https://example.com". */
function normalizeOrigin(origin: string): string {
  return new URL(origin).origin;
}

/**
 * The public origin for a route's `meta({ matches })`: the root loader's
 * `{ origin }` (see rootSeoData), else the browser's own origin. Throws on
 * the server when the root loader is missing, so that no page is rendered
 * with addresses on the wrong host.
 */
export function originFrom(matches: readonly MatchWithData[]): string {
  for (const match of matches) {
    const data = match?.loaderData ?? match?.data;
    if (hasOrigin(data)) return normalizeOrigin(data.origin);
  }
  if (typeof window !== "undefined") return window.location.origin;
  throw new Error(
    "originFrom: no route match carries { origin }; the root route's loader must return rootSeoData(args)",
  );
}

/**
 * The site facts for a route's `meta({ matches })`: the root loader's
 * `{ facts }`, read from the database on the server. Throws when the root
 * loader did not give them, so that no page shows facts from anywhere else.
 */
export function factsFrom(matches: readonly MatchWithData[]): PageFacts {
  for (const match of matches) {
    const data = match?.loaderData ?? match?.data;
    if (hasFacts(data)) return data.facts;
  }
  throw new Error(
    "factsFrom: no route match carries { facts }; the root route's loader must return the site facts",
  );
}

/** `path` on `origin` as an absolute address: ("https://x.com", "/weare") → "https://x.com/weare". */
function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${normalizeOrigin(origin)}/`).href;
}

/* ------------------------------------------------------------------ images and links */

export interface ShareImage {
  /** A path on the site, e.g. "/images/share.png". */
  path: string;
  width: number;
  height: number;
  type: string;
  alt: string;
}

/** The picture link previews show (made by scripts/media/share-image.ts). */
export const SHARE_IMAGE: ShareImage = {
  path: "/images/share.png",
  width: 1200,
  height: 630,
  type: "image/png",
  alt: `${SITE.firmName}: the Meridian logo and "Business + Technology" on a dark blue background.`,
};

/** The square logo for search results (≥ 112 px): the 512 px app icon. */
export const LOGO_IMAGE = { path: "/icons/icon-512.png", width: 512, height: 512 } as const;

export const MANIFEST_PATH = "/manifest.webmanifest";
export const APPLE_TOUCH_ICON_PATH = "/icons/apple-touch-icon.png";

/**
 * The Insight archive's Atom feed: named in the head of every page, since a
 * reader given any of the site's addresses looks for the feed there.
 */
export const INSIGHT_FEED_LINK = {
  rel: "alternate",
  type: "application/atom+xml",
  href: INSIGHT_FEED_PATH,
  title: "Insight (Atom feed)",
} as const satisfies LinkDescriptor;

/** For root.tsx: `export const links: LinksFunction = () => SITE_LINKS;` */
export const SITE_LINKS: LinkDescriptor[] = [
  { rel: "manifest", href: MANIFEST_PATH },
  { rel: "apple-touch-icon", href: APPLE_TOUCH_ICON_PATH, sizes: "180x180" },
  INSIGHT_FEED_LINK,
];

/* ------------------------------------------------------------------ JSON-LD */

/** A JSON-LD block of a page. */
export type JsonLd = WithContext<Thing>;

const CONTEXT = "https://schema.org" as const;

/** The organization's node id: other nodes refer to it with `{ "@id": … }`. */
function organizationId(origin: string): string {
  return `${absoluteUrl(origin, "/")}#organization`;
}

/** A reference to the organization, with its name and address for readers that do not follow ids. */
function organizationRef(origin: string): OrganizationLeaf {
  return {
    "@type": "Organization",
    "@id": organizationId(origin),
    name: SITE.firmName,
    url: absoluteUrl(origin, "/"),
  };
}

function logoJsonLd(origin: string): ImageObjectLeaf {
  return {
    "@type": "ImageObject",
    url: absoluteUrl(origin, LOGO_IMAGE.path),
    contentUrl: absoluteUrl(origin, LOGO_IMAGE.path),
  };
}

/** The firm: on every page. Its names are the build's; the rest is the facts the firm edits. */
function organizationJsonLd(facts: PageFacts, origin: string): WithContext<OrganizationLeaf> {
  const contactPoint: ContactPointLeaf = {
    "@type": "ContactPoint",
    contactType: "sales",
    email: facts.contactEmail,
    url: absoluteUrl(origin, ROUTES.contactUs),
    availableLanguage: "en",
  };
  return {
    "@context": CONTEXT,
    "@type": "Organization",
    "@id": organizationId(origin),
    name: SITE.firmName,
    alternateName: SITE.shortName,
    url: absoluteUrl(origin, "/"),
    logo: logoJsonLd(origin),
    description: facts.mission,
    email: facts.contactEmail,
    contactPoint,
    sameAs: [facts.networkUrl],
  };
}

/** The site itself: Home only (it gives search results the site's name). */
function websiteJsonLd(origin: string): WithContext<WebSiteLeaf> {
  return {
    "@context": CONTEXT,
    "@type": "WebSite",
    "@id": `${absoluteUrl(origin, "/")}#website`,
    name: SITE.firmName,
    alternateName: SITE.shortName,
    url: absoluteUrl(origin, "/"),
    inLanguage: "en",
    publisher: { "@id": organizationId(origin) },
  };
}

/** "Ava Thompson" → "ava-thompson". */
function slugOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A leader of the firm, shown on Who We Are. */
function personJsonLd(member: TeamMember, origin: string): WithContext<PersonLeaf> {
  return {
    "@context": CONTEXT,
    "@type": "Person",
    "@id": `${absoluteUrl(origin, ROUTES.weAre)}#${slugOf(member.fullname)}`,
    name: member.fullname,
    jobTitle: member.title,
    description: member.bio,
    image: absoluteUrl(origin, `/images/pictures/${encodeURIComponent(member.imagePath)}`),
    url: absoluteUrl(origin, ROUTES.weAre),
    worksFor: organizationRef(origin),
  };
}

/** What a case study page needs of a case study (content/case-studies.json). */
export interface CaseStudySeo {
  slug: string;
  title: string;
  summary: string;
  /** ISO 8601, from the server's read (DatedCaseStudy); a list the browser fetched has none. */
  datePublished?: string | undefined;
  dateModified?: string | undefined;
}

/** What an Article's block says: a case study, or an Insight issue. */
interface ArticleSeo {
  path: string;
  headline: string;
  description: string;
  section?: string | undefined;
  /** ISO 8601. */
  datePublished?: string | undefined;
  dateModified?: string | undefined;
}

/** A page that is an article, by and from the firm. */
function articleJsonLd(article: ArticleSeo, origin: string): WithContext<ArticleLeaf> {
  const url = absoluteUrl(origin, article.path);
  return {
    "@context": CONTEXT,
    "@type": "Article",
    "@id": `${url}#article`,
    headline: article.headline,
    description: article.description,
    url,
    mainEntityOfPage: url,
    image: [absoluteUrl(origin, SHARE_IMAGE.path)],
    author: organizationRef(origin),
    publisher: { ...organizationRef(origin), logo: logoJsonLd(origin) },
    inLanguage: "en",
    ...(article.section ? { articleSection: article.section } : {}),
    ...(article.datePublished ? { datePublished: article.datePublished } : {}),
    ...(article.dateModified ? { dateModified: article.dateModified } : {}),
  };
}

/** A case study, on its own page. */
function caseStudyJsonLd(study: CaseStudySeo, origin: string): WithContext<ArticleLeaf> {
  const sector = sectorOf(study);
  return articleJsonLd(
    {
      path: caseStudyPath(study.slug),
      headline: study.title,
      description: study.summary,
      section: sector && sector !== study.title ? sector : undefined,
      datePublished: study.datePublished,
      dateModified: study.dateModified,
    },
    origin,
  );
}

/* ------------------------------------------------------------------ meta descriptors */

export interface PageMetaInput {
  /** The whole `<title>`. */
  title: string;
  description: string;
  /** The page's path, e.g. "/weare": its canonical address is origin + path. */
  path: string;
  origin: string;
  /** The site facts: the organization's description, address and network link. */
  facts: PageFacts;
  type?: "website" | "article";
  /** An article's publication time (ISO 8601): its article:published_time. */
  publishedTime?: string;
  image?: ShareImage;
  /** JSON-LD besides the organization's, which every page carries. */
  jsonLd?: readonly JsonLd[];
  noindex?: boolean;
}

/** Every head tag of a page: title, description, canonical, Open Graph, Twitter card, JSON-LD. */
export function pageMeta({
  title,
  description,
  path,
  origin,
  facts,
  type = "website",
  publishedTime,
  image = SHARE_IMAGE,
  jsonLd = [],
  noindex = false,
}: PageMetaInput): MetaDescriptor[] {
  const url = absoluteUrl(origin, path);
  const imageUrl = absoluteUrl(origin, image.path);
  const blocks: readonly JsonLd[] = [organizationJsonLd(facts, origin), ...jsonLd];
  return [
    { title },
    { name: "description", content: description },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE.firmName },
    { property: "og:locale", content: "en_US" },
    { property: "og:type", content: type },
    ...(publishedTime ? [{ property: "article:published_time", content: publishedTime }] : []),
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { property: "og:image:type", content: image.type },
    { property: "og:image:width", content: String(image.width) },
    { property: "og:image:height", content: String(image.height) },
    { property: "og:image:alt", content: image.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: imageUrl },
    { name: "twitter:image:alt", content: image.alt },
    ...blocks.map((block) => ({ "script:ld+json": block })),
  ];
}

/** What the root route's meta functions receive. */
type Matches = readonly MatchWithData[];

export interface RouteMetaOptions {
  /** Who We Are: the leaders, one Person each (the route's loader data). */
  people?: readonly TeamMember[] | undefined;
}

/**
 * The meta of one of the site's pages, from PAGE_SEO:
 *
 *   export const meta: MetaFunction = ({ matches }) => routeMeta(ROUTES.weServe, matches);
 *   // routes/weare.tsx: a Person for each leader its loader read
 *   export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
 *     routeMeta(ROUTES.weAre, matches, { people: data?.lists.team });
 */
export function routeMeta(
  path: PagePath,
  matches: Matches,
  options: RouteMetaOptions = {},
): MetaDescriptor[] {
  return pageMetaFor(path, originFrom(matches), factsFrom(matches), options);
}

/** routeMeta with the origin and the facts given: for tests and for callers that have them. */
export function pageMetaFor(
  path: PagePath,
  origin: string,
  facts: PageFacts,
  { people }: RouteMetaOptions = {},
): MetaDescriptor[] {
  const { title, description, noindex } = pageSeo(path, facts);
  const jsonLd: JsonLd[] = [
    ...(path === ROUTES.home ? [websiteJsonLd(origin)] : []),
    ...(people ?? []).map((member) => personJsonLd(member, origin)),
  ];
  return pageMeta({
    title,
    description,
    path,
    origin,
    facts,
    jsonLd,
    noindex: noindex === true,
  });
}

/** The title of a case study's page. */
export function caseStudyTitle(study: Pick<CaseStudySeo, "title">): string {
  return documentTitle(`${study.title} · Case study`);
}

/**
 * A case study's page (/weserve/case-studies/<slug>), an Article:
 *
 *   // routes/case-study.tsx (the study from Who We Serve's loader)
 *   export const meta: MetaFunction = ({ params, matches }) => {
 *     const study = findStudy(…, params.slug);
 *     return study ? caseStudyMeta(study, matches) : notFoundMeta(matches);
 *   };
 */
export function caseStudyMeta(study: CaseStudySeo, matches: Matches): MetaDescriptor[] {
  return caseStudyMetaFor(study, originFrom(matches), factsFrom(matches));
}

export function caseStudyMetaFor(
  study: CaseStudySeo,
  origin: string,
  facts: PageFacts,
): MetaDescriptor[] {
  return pageMeta({
    title: caseStudyTitle(study),
    description: clampDescription(study.summary),
    path: caseStudyPath(study.slug),
    origin,
    facts,
    type: "article",
    jsonLd: [caseStudyJsonLd(study, origin)],
  });
}

/** The title of an Insight issue's page. */
export function insightIssueTitle(issue: Pick<InsightSummary, "title">): string {
  return documentTitle(`${issue.title} · Insight`);
}

/**
 * An Insight issue's page (/insight/<slug>), an Article dated when its
 * sending began:
 *
 *   // routes/insight-issue.tsx
 *   export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
 *     data?.issue ? insightIssueMeta(data.issue, matches) : notFoundMeta(matches);
 */
export function insightIssueMeta(issue: InsightSummary, matches: Matches): MetaDescriptor[] {
  return insightIssueMetaFor(issue, originFrom(matches), factsFrom(matches));
}

export function insightIssueMetaFor(
  issue: InsightSummary,
  origin: string,
  facts: PageFacts,
): MetaDescriptor[] {
  return pageMeta({
    title: insightIssueTitle(issue),
    description: clampDescription(issue.summary),
    path: insightIssuePath(issue.slug),
    origin,
    facts,
    type: "article",
    publishedTime: issue.publishedAt,
    jsonLd: [
      articleJsonLd(
        {
          path: insightIssuePath(issue.slug),
          headline: issue.title,
          description: issue.summary,
          section: "Insight",
          datePublished: issue.publishedAt,
          // A sent issue is never rewritten: its page is the one rendered for the send.
          dateModified: issue.publishedAt,
        },
        origin,
      ),
    ],
  });
}

/**
 * The page unknown paths show: a title and the organization, not indexed,
 * and no canonical or og:url (it has no address of its own).
 *
 *   // routes/not-found.tsx
 *   export const meta: MetaFunction = ({ matches }) => notFoundMeta(matches);
 */
export function notFoundMeta(matches: Matches): MetaDescriptor[] {
  const origin = originFrom(matches);
  return [
    { title: NOT_FOUND_SEO.title },
    { name: "description", content: NOT_FOUND_SEO.description },
    { name: "robots", content: "noindex" },
    { "script:ld+json": organizationJsonLd(factsFrom(matches), origin) },
  ];
}
