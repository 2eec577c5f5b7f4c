/**
 * An Insight issue rendered once: the e-mail's HTML and plain-text parts, with
 * a placeholder where each recipient's unsubscribe URL goes, and the HTML of
 * its archive page. `personalise` makes one recipient's copy by substitution,
 * so a send of any size renders the issue a single time (ADR 019, ADR 073).
 */
import escapeHtml from "escape-html";
import { createElement } from "react";
import { insightIssuePath } from "../../../shared/routes.ts";
import { type EmailImages, renderMarkdown } from "../../platform/markdown/markdown.ts";
import { fillPlaceholders, renderMail } from "../../platform/outbox/render.ts";
import { IssueEmail } from "./issue-email.tsx";

export interface IssueSource {
  slug: string;
  title: string;
  summary: string;
  /** Markdown. */
  body: string;
}

export interface RenderedIssue {
  emailHtml: string;
  emailText: string;
  webHtml: string;
}

/**
 * The placeholder the e-mail carries where each recipient's own unsubscribe
 * URL goes. Its characters are ones neither React's escaping nor html-to-text
 * change, and the `.invalid` domain (RFC 2606) cannot be anyone's real link.
 */
export const UNSUBSCRIBE_URL_PLACEHOLDER = "https://unsubscribe.invalid/{{recipient}}";

/** The issue's page on the site, which its e-mail links to and resolves relative URLs against. */
export function issueUrlOf(slug: string, origin: string): string {
  return new URL(insightIssuePath(slug), origin).href;
}

export interface RenderOptions {
  origin: string;
  /**
   * The e-mail's file and size of the issue's uploaded pictures
   * (issue-pictures.ts); a picture not in it keeps its address and gets the
   * body's width alone.
   */
  pictures?: EmailImages;
  /**
   * Whether the e-mail's links to the site carry the issue's UTM tags
   * (tagOwnLinks; INSIGHT_LINK_TAGS). The archive page's are never tagged.
   */
  tagLinks?: boolean;
}

/** The UTM tags of the links in an issue's e-mail: the same for every reader, never a reader's own. */
export function insightTags(slug: string): Record<string, string> {
  return { utm_source: "insight", utm_medium: "email", utm_campaign: slug };
}

/**
 * Adds the issue's UTM tags to every link of `html` that leads to the site
 * (`origin`), so that the visits an issue brings, and the leads they make,
 * are told apart; links to other sites are left as written, as are tags an
 * editor put on a link themselves.
 */
function tagOwnLink(href: string, origin: string, slug: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  if (url.origin !== new URL(origin).origin) return href;
  for (const [name, value] of Object.entries(insightTags(slug))) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  }
  return url.href;
}

/** tagOwnLink on every link of the Markdown's HTML. */
function tagOwnLinks(html: string, origin: string, slug: string): string {
  return html.replace(/\bhref="([^"]*)"/g, (whole, escaped: string) => {
    const href = escaped.replace(/&amp;/g, "&");
    const tagged = tagOwnLink(href, origin, slug);
    return tagged === href ? whole : `href="${escapeHtml(tagged)}"`;
  });
}

export function renderIssue(issue: IssueSource, options: RenderOptions): RenderedIssue {
  const issueUrl = issueUrlOf(issue.slug, options.origin);
  const { webHtml, emailHtml: untaggedBody } = renderMarkdown(issue.body, {
    pageUrl: issueUrl,
    ...(options.pictures ? { images: options.pictures } : {}),
  });
  const { origin, tagLinks } = options;
  const { html, text } = renderMail(
    createElement(IssueEmail, {
      title: issue.title,
      summary: issue.summary,
      issueUrl: tagLinks ? tagOwnLink(issueUrl, origin, issue.slug) : issueUrl,
      bodyHtml: tagLinks ? tagOwnLinks(untaggedBody, origin, issue.slug) : untaggedBody,
      unsubscribeUrl: UNSUBSCRIBE_URL_PLACEHOLDER,
    }),
  );
  return { emailHtml: html, emailText: text, webHtml };
}

/** One recipient's copy: the placeholder replaced by their URL (HTML-escaped in the HTML part). */
export function personalise(
  rendered: Pick<RenderedIssue, "emailHtml" | "emailText">,
  unsubscribeUrl: string,
): { html: string; text: string } {
  return fillPlaceholders(
    { html: rendered.emailHtml, text: rendered.emailText },
    { [UNSUBSCRIBE_URL_PLACEHOLDER]: unsubscribeUrl },
  );
}
