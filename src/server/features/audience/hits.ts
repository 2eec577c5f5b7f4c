/**
 * What one counted page view says about its visit, and whether a request is
 * one to count at all. Everything here runs on the request's own path, so
 * it stays cheap: a few header reads, and `isbot`'s one regular expression
 * only for requests that got that far. The user agent is parsed (ua-parser-js)
 * only when a visit begins, off the request's path (visits.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { channelOf, referrerDomain as domainOfReferrer } from "../../../shared/lead-source.ts";
import {
  CASE_STUDY_ROUTE,
  caseStudyPath,
  INSIGHT_ISSUE_ROUTE,
  insightIssuePath,
  PAGE_PATHS,
  slugIn,
} from "../../../shared/routes.ts";
import type { AudienceDimension } from "../../platform/db/schema.ts";
import { isLoopbackHost } from "../../platform/http/loopback.ts";

/** The page a visit reached that counts as the funnel's second step. */
export const CONTACT_PATH = "/contact-us";

/** Longest page path, referrer domain and UTM value kept; longer ones are cut. */
const MAX_VALUE = 200;

export interface Hit {
  /** The UTC day, YYYY-MM-DD, of the clock the app runs on. */
  day: string;
  /** Epoch ms. */
  at: number;
  /** The visitor's and the address's keyed hashes are made of these, then they are dropped. */
  ip: string;
  userAgent: string;
  /** The page's canonical path. */
  path: string;
  /** Only read when this view begins a visit. */
  referrer: string;
  /** The query string of the request, for its UTM tags (a document request's only). */
  query: string;
  /** Whether the view comes from elsewhere (arrivesFromElsewhere), so it begins a visit. */
  arrives: boolean;
}

/**
 * Whether a view comes from outside the site: another site's link, or a
 * link tagged with UTM tags (a campaign, an Insight issue). It begins a new
 * visit even within 30 minutes of the last view, so each visit has the one
 * source its lead records too; a reload of such a page counts again.
 */
export function arrivesFromElsewhere(
  referrer: string,
  query: string,
  isOwn: (host: string) => boolean,
): boolean {
  if (query.includes("utm_")) return true;
  return referrer !== "" && referrerDomain(referrer, isOwn) !== "";
}

/**
 * Whether the browser asked for nothing to be counted, or fetched the page
 * ahead of a click that may never come: `DNT: 1`, `Sec-GPC: 1`, a link
 * prefetch (`Sec-Purpose: prefetch`, or the older `Purpose: prefetch`), or
 * a crawler's user agent.
 */
export function notToCount(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers.dnt === "1" || headers["sec-gpc"] === "1") return true;
  const purpose = headers["sec-purpose"] ?? headers.purpose ?? headers["x-purpose"];
  if (typeof purpose === "string" && purpose.includes("prefetch")) return true;
  const agent = headers["user-agent"];
  return !agent || isCrawler(agent);
}

/**
 * isbot's answers for the user agents seen lately: a site's readers use a
 * few dozen browser builds, so most requests are answered from here, not by
 * the pattern. Emptied when full, so made-up user agents cannot grow it.
 */
const crawlerAnswers = new Map<string, boolean>();
const MAX_CRAWLER_ANSWERS = 1000;

function isCrawler(agent: string): boolean {
  const known = crawlerAnswers.get(agent);
  if (known !== undefined) return known;
  const answer = isbot(agent);
  if (crawlerAnswers.size >= MAX_CRAWLER_ANSWERS) crawlerAnswers.clear();
  crawlerAnswers.set(agent, answer);
  return answer;
}

const KNOWN_PAGES = new Set(PAGE_PATHS);

/**
 * The canonical path of the page a request was answered with, from the
 * route that answered, never from the request's own target: `/#x`,
 * `/we%61re` and `/weare` reach the one route and are its one page. A case
 * study or an Insight issue is its route with the slug the router matched
 * (decoded; the caller counts only a success, which only a slug the
 * content has gets). Null for an answer of no page's route: the not-found
 * page, a file, the API.
 */
export function servedPagePath(request: FastifyRequest): string | null {
  const route = request.routeOptions.url;
  if (route === undefined) return null;
  if (KNOWN_PAGES.has(route)) return route;
  const slug = (request.params as { slug?: unknown } | undefined)?.slug;
  if (typeof slug !== "string") return null;
  if (route === CASE_STUDY_ROUTE) return caseStudyPath(slug).slice(0, MAX_VALUE);
  if (route === INSIGHT_ISSUE_ROUTE) return insightIssuePath(slug).slice(0, MAX_VALUE);
  return null;
}

/** A slug as the content may have one. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;

const slugOf = (route: string) => (path: string) => {
  const slug = slugIn(route, path);
  return slug !== null && SLUG.test(slug) ? slug : null;
};
const caseStudySlug = slugOf(CASE_STUDY_ROUTE);
const issueSlug = slugOf(INSIGHT_ISSUE_ROUTE);

/**
 * Whether a beacon names a page the site has: one of its pages, a case
 * study or a published Insight issue (read from the content in memory), as
 * a document request for any other path gets the not-found page, which is
 * not counted either.
 */
export async function isSitePage(
  content: FastifyInstance["content"],
  path: string,
): Promise<boolean> {
  if (KNOWN_PAGES.has(path)) return true;
  const study = caseStudySlug(path);
  if (study) return (await content.caseStudies()).some((known) => known.slug === study);
  const issue = issueSlug(path);
  return issue !== null && (await content.insightIssue(issue)) !== null;
}

/**
 * Whether a Host names the site: PUBLIC_ORIGIN's host name, in any case,
 * on any port (behind a proxy, the name the proxy passes on: Host, or
 * X-Forwarded-Host from a proxy TRUST_PROXY names). A site whose public
 * origin is on this machine (development) answers to every loopback name.
 */
export function ownHost(publicOrigin: string): (hostname: string) => boolean {
  const own = new URL(publicOrigin).hostname.toLowerCase();
  const loopback = isLoopbackHost(own);
  return (hostname) => {
    if (hostname === own) return true;
    const name = hostname.toLowerCase();
    return name === own || (loopback && isLoopbackHost(name));
  };
}

/** A path as a page is known by: no query, no trailing slash but the root's. */
export function pagePath(url: string): string {
  const query = url.indexOf("?");
  let path = query === -1 ? url : url.slice(0, query);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path.slice(0, MAX_VALUE);
}

/**
 * The referring domain, without `www.`; "" for none, for one that is not a
 * URL, and for this site itself, which brings no one new.
 */
export function referrerDomain(referrer: string, isOwn: (host: string) => boolean): string {
  if (referrer === "") return "";
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return "";
  }
  // Kept as a lead's referrer is, so a lead is matched to the visits it came from.
  return isOwn(host) ? "" : (domainOfReferrer(host) ?? "");
}

function tag(query: URLSearchParams, name: string): string {
  return (query.get(name) ?? "").trim().toLowerCase().slice(0, MAX_VALUE);
}

/** The rows a visit adds to besides the page's: where it began and came from, and on what. */
export function visitAttributes(
  hit: Hit,
  isOwn: (host: string) => boolean,
): [AudienceDimension, string][] {
  const query = new URLSearchParams(hit.query);
  const source = tag(query, "utm_source");
  const medium = tag(query, "utm_medium");
  const campaign = tag(query, "utm_campaign");
  const domain = referrerDomain(hit.referrer, isOwn);
  const parser = new UAParser(hit.userAgent);
  const agent = { browser: parser.getBrowser(), device: parser.getDevice() };
  const deviceType = agent.device.type;
  const device = deviceType === "mobile" || deviceType === "tablet" ? deviceType : "desktop";
  const rows: [AudienceDimension, string][] = [
    ["entry", hit.path],
    ["channel", channelOf({ referrer: domain, utmSource: source, utmMedium: medium })],
    ["referrer", domain],
    ["device", device],
    ["browser", (agent.browser.name ?? "Other").slice(0, MAX_VALUE)],
    ["funnel", "landing"],
  ];
  if (source) rows.push(["utm_source", source]);
  if (medium) rows.push(["utm_medium", medium]);
  if (campaign) rows.push(["utm_campaign", campaign]);
  if (source === "insight" && campaign) rows.push(["insight", campaign]);
  return rows;
}
