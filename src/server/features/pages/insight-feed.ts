/**
 * The Insight archive as an Atom feed (RFC 4287) at /insight/feed.xml, for
 * feed readers: the newest issues, each with its whole body. A reader shows
 * the body away from the site, so every relative address in it is made
 * absolute against the issue's own address.
 */
import escapeHtml from "escape-html";
import type { InsightIssue } from "../../../shared/insight.ts";
import type { ContentReader } from "../../../shared/page-context.ts";
import { INSIGHT_FEED_PATH, INSIGHT_PATH, insightIssuePath } from "../../../shared/routes.ts";
import { SITE } from "../../../shared/site.ts";

export const ATOM_TYPE = "application/atom+xml; charset=utf-8";

/** How many issues the feed carries, newest first: a reader keeps what it already read. */
export const FEED_ENTRIES = 20;

const FEED_TITLE = `Insight, the newsletter of ${SITE.firmName}`;

/**
 * Characters XML 1.0 does not allow at all (most control characters, lone
 * surrogates, U+FFFE/U+FFFF): one of them would make the whole feed unreadable.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `text` as XML character data or an attribute value (& < > " ' escaped). */
export function escapeXml(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ""));
}

/** A value of href or src that names no scheme (`/images/a.png`, `#notes`, `../x`) is relative. */
const URL_ATTRIBUTE = /(\s(?:href|src)=")([^"]*)"/g;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The issue's HTML with every relative href and src resolved against `base`. */
export function withAbsoluteUrls(html: string, base: string): string {
  return html.replace(URL_ATTRIBUTE, (whole, start: string, value: string) => {
    if (HAS_SCHEME.test(value)) return whole;
    // The value is as the HTML spells it (&amp; for &): resolving keeps the entities as they are.
    const absolute = URL.canParse(value, base) ? new URL(value, base).href : value;
    return `${start}${absolute}"`;
  });
}

function entry(issue: InsightIssue, origin: string): string {
  const url = new URL(insightIssuePath(issue.slug), origin).href;
  return `<entry>
<id>${escapeXml(url)}</id>
<title type="text">${escapeXml(issue.title)}</title>
<link rel="alternate" type="text/html" href="${escapeXml(url)}"/>
<published>${issue.publishedAt}</published>
<updated>${issue.correctedAt ?? issue.publishedAt}</updated>
<summary type="text">${escapeXml(issue.summary)}</summary>
<content type="html">${escapeXml(withAbsoluteUrls(issue.html, url))}</content>
</entry>`;
}

/**
 * The feed of `issues` (newest first). Its `updated` is the last time its
 * entries changed (Atom requires one, and readers compare it between
 * fetches): the newest issue's time, or `archiveChangedAt` (an issue
 * withdrawn, put back or corrected, or with none ever, the site's set-up)
 * when that is later.
 */
export function atomFeed(
  origin: string,
  issues: readonly InsightIssue[],
  archiveChangedAt: string,
): string {
  const archive = new URL(INSIGHT_PATH, origin).href;
  const newest = issues[0]?.publishedAt;
  const updated = newest && newest > archiveChangedAt ? newest : archiveChangedAt;
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
<id>${escapeXml(archive)}</id>
<title type="text">${escapeXml(FEED_TITLE)}</title>
<link rel="self" type="application/atom+xml" href="${escapeXml(new URL(INSIGHT_FEED_PATH, origin).href)}"/>
<link rel="alternate" type="text/html" href="${escapeXml(archive)}"/>
<updated>${updated}</updated>
<author><name>${escapeXml(SITE.firmName)}</name><uri>${escapeXml(new URL("/", origin).href)}</uri></author>
${issues.map((issue) => entry(issue, origin)).join("\n")}
</feed>
`;
}

/** The newest FEED_ENTRIES issues with their bodies, from the content's cached reads. */
export async function feedIssues(content: ContentReader): Promise<InsightIssue[]> {
  const newest = (await content.insightIssues()).slice(0, FEED_ENTRIES);
  const issues = await Promise.all(newest.map((summary) => content.insightIssue(summary.slug)));
  return issues.filter((issue): issue is InsightIssue => issue !== null);
}
