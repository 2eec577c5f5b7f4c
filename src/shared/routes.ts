/** The routes of the site and their in-page anchors. */
export const ROUTES = {
  home: "/",
  weServe: "/weserve",
  weDo: "/wedo",
  weAre: "/weare",
  contactUs: "/contact-us",
} as const;

/** The privacy notice: what the forms collect and what becomes of it. */
export const PRIVACY_PATH = "/privacy";

/** The five screens of the site's menu. */
export const SCREEN_PATHS = Object.values(ROUTES);

/** Each case study's own page (the See More modal shows the same address). */
export const CASE_STUDY_ROUTE = "/weserve/case-studies/:slug";

export function caseStudyPath(slug: string): string {
  return CASE_STUDY_ROUTE.replace(":slug", encodeURIComponent(slug));
}

/**
 * What the server renders, once, for every unknown case study: the browser
 * matches such a path to the case-study route, which shows Home for a slug it
 * does not know, so the page must be rendered by that route to hydrate (the
 * reason for NOT_FOUND_PATH below). No slug can be "__unknown" (seed rule).
 */
export const UNKNOWN_CASE_STUDY_PATH = caseStudyPath("__unknown");

/** Where the link in every newsletter e-mail leads (not one of the menu's five screens). */
export const UNSUBSCRIBE_PATH = "/unsubscribe";

/**
 * Where the footer's subscribe form posts without JavaScript, and a page of
 * its own that shows the form and the outcome (not one of the menu's five
 * screens, and not in the sitemap).
 */
export const SUBSCRIBE_PATH = "/subscribe";

/**
 * Where the link in a confirmation e-mail leads when the firm asks new
 * subscribers to confirm their address (NEWSLETTER_DOUBLE_OPT_IN); not in the sitemap.
 */
export const CONFIRM_SUBSCRIPTION_PATH = "/subscribe/confirm";

/** The Insight archive: every issue sent, newest first (not one of the menu's five screens). */
export const INSIGHT_PATH = "/insight";

/** One issue of the archive; also the "view in browser" link of its e-mail. */
export const INSIGHT_ISSUE_ROUTE = "/insight/:slug";

export function insightIssuePath(slug: string): string {
  return INSIGHT_ISSUE_ROUTE.replace(":slug", encodeURIComponent(slug));
}

/**
 * A link of an issue's e-mail, counted and then followed: the site's
 * redirect to the address the link had (numbered from 1 in the e-mail's
 * order), the same for every reader. Not a page; not in the sitemap.
 */
export const INSIGHT_LINK_ROUTE = "/insight/:slug/link/:position";

export function insightLinkPath(slug: string, position: number): string {
  return `${insightIssuePath(slug)}/link/${position}`;
}

/**
 * The slug a path gives a route with one `:slug` (CASE_STUDY_ROUTE,
 * INSIGHT_ISSUE_ROUTE): the part where the route has `:slug`, when the
 * rest is the route's own and the part holds no `/`; else null. What a slug
 * may hold is the caller's to check.
 */
export function slugIn(route: string, path: string): string | null {
  const at = route.indexOf(":slug");
  const before = route.slice(0, at);
  const after = route.slice(at + ":slug".length);
  if (path.length <= before.length + after.length) return null;
  if (!path.startsWith(before) || !path.endsWith(after)) return null;
  const slug = path.slice(before.length, path.length - after.length);
  return slug.includes("/") ? null : slug;
}

/** The archive's Atom feed. */
export const INSIGHT_FEED_PATH = "/insight/feed.xml";

/**
 * What the server renders, once, for every unknown issue, for the reason
 * UNKNOWN_CASE_STUDY_PATH gives. No issue's slug can be "__unknown" (SLUG_PATTERN).
 */
export const UNKNOWN_INSIGHT_ISSUE_PATH = insightIssuePath("__unknown");

/** Every path that is a page of its own; any other path shows the not-found page. */
export const PAGE_PATHS: readonly string[] = [
  ...SCREEN_PATHS,
  UNSUBSCRIBE_PATH,
  SUBSCRIBE_PATH,
  CONFIRM_SUBSCRIPTION_PATH,
  INSIGHT_PATH,
  PRIVACY_PATH,
];

/**
 * Any other path shows Home. The server renders this path, which only
 * the catch-all route matches, once, and sends that page with status 404 for
 * every unknown path, so it hydrates as the route the browser matches (a page
 * rendered for Home's index route would not: React error 418).
 */
export const NOT_FOUND_PATH = "/__not-found";

export const ANCHORS = {
  caseStudies: "casestudies",
  industriesAndTechNeeds: "industries&techneeds",
  capabilities: "capabilities",
  methodology: "methodology",
  leadership: "leadership",
  ethos: "ethos",
} as const;

/** The line under each form that says what its details are for, before its link to the notice. */
export const PRIVACY_LINES = {
  inquiry: "We use these details only to answer you.",
  subscription: "Your address is used only to send you Insight.",
} as const;
