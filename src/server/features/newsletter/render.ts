/**
 * An Insight issue rendered once: the e-mail's HTML and plain-text parts, with
 * a placeholder where each recipient's unsubscribe URL goes, and the HTML of
 * its archive page. `personalise` makes one recipient's copy by substitution,
 * so a send of any size renders the issue a single time (ADR 019, ADR 073):
 * their unsubscribe URL, and their values of the merge fields (ADR 086).
 * When its clicks are counted (ADR 083), each web link of the e-mail leads
 * through the site's redirect for it, the same for every reader.
 */
import escapeHtml from "escape-html";
import { createElement } from "react";
import {
  type MergeField,
  type MergeValues,
  mergeValue,
  replaceMergeFields,
} from "../../../shared/merge-fields.ts";
import { insightIssuePath, insightLinkPath } from "../../../shared/routes.ts";
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
  /**
   * The addresses the e-mail's links lead on to, the first link's first:
   * what the redirect of link n follows. Empty when clicks are not counted.
   */
  links: string[];
}

/**
 * The placeholder the e-mail carries where each recipient's own unsubscribe
 * URL goes. Its characters are ones neither React's escaping nor html-to-text
 * change, and the `.invalid` domain (RFC 2606) cannot be anyone's real link.
 */
export const UNSUBSCRIBE_URL_PLACEHOLDER = "https://unsubscribe.invalid/{{recipient}}";

/**
 * Where a merge field goes in the e-mail, until a reader's copy is made: the
 * field and its fallback, in hexadecimal, so that neither Markdown, React's
 * escaping nor the plain-text conversion changes it, whatever the fallback
 * holds.
 */
const mergePlaceholder = (field: MergeField, fallback: string) =>
  `{{merge:${field}:${Buffer.from(fallback).toString("hex")}}}`;
const MERGE_PLACEHOLDER = /\{\{merge:(first_name|last_name):([0-9a-f]{0,480})\}\}/g;

/** A part of the e-mail with each merge field's placeholder filled for one reader. */
function fillMergePlaceholders(
  part: string,
  values: MergeValues,
  asWritten: (value: string) => string,
): string {
  return part.replace(MERGE_PLACEHOLDER, (_whole, field: MergeField, hex: string) =>
    asWritten(mergeValue(values, field, Buffer.from(hex, "hex").toString())),
  );
}

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
   * (tagOwnLink; INSIGHT_LINK_TAGS). The archive page's are never tagged.
   */
  tagLinks?: boolean;
  /**
   * Whether each web link of the e-mail leads through the site's redirect,
   * which counts it (INSIGHT_CLICK_COUNTS): only for the copies sent, never
   * for a preview or a test, whose clicks would be the firm's own.
   */
  countClicks?: boolean;
}

/** The UTM tags of the links in an issue's e-mail: the same for every reader, never a reader's own. */
export function insightTags(slug: string): Record<string, string> {
  return { utm_source: "insight", utm_medium: "email", utm_campaign: slug };
}

/**
 * Adds the issue's UTM tags to a link that leads to the site (`origin`), so
 * that the visits an issue brings, and the leads they make, are told apart;
 * links to other sites are left as written, as are tags an editor put on a
 * link themselves.
 */
function tagOwnLink(url: URL, origin: string, slug: string): URL {
  if (url.origin !== new URL(origin).origin) return url;
  const tagged = new URL(url);
  for (const [name, value] of Object.entries(insightTags(slug))) {
    if (!tagged.searchParams.has(name)) tagged.searchParams.set(name, value);
  }
  return tagged;
}

/**
 * What each link of the e-mail becomes: tagged (tagLinks), then, when clicks
 * are counted, the redirect that leads on to it, numbered as the links are
 * first met; a link written twice is one link. Only web links are counted:
 * a mailto: link is left as it is.
 */
function emailLinks(slug: string, { origin, tagLinks, countClicks }: RenderOptions) {
  const numbered = new Map<string, number>();
  const rewrite = (href: string): string => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return href;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return href;
    const target = (tagLinks ? tagOwnLink(url, origin, slug) : url).href;
    if (!countClicks) return target === url.href ? href : target;
    const position = numbered.get(target) ?? numbered.size + 1;
    numbered.set(target, position);
    return new URL(insightLinkPath(slug, position), origin).href;
  };
  return { rewrite, links: () => [...numbered.keys()] };
}

/** `rewrite` on every link of the Markdown renderer's HTML, whose attributes are double-quoted and escaped. */
function rewriteLinks(html: string, rewrite: (href: string) => string): string {
  return html.replace(/\bhref="([^"]*)"/g, (whole, escaped: string) => {
    const href = escaped.replace(/&amp;/g, "&");
    const rewritten = rewrite(href);
    return rewritten === href ? whole : `href="${escapeHtml(rewritten)}"`;
  });
}

/**
 * The issue rendered once: the e-mail with a placeholder for each merge
 * field, and the archive page with each field's fallback (it has no reader).
 */
export function renderIssue(issue: IssueSource, options: RenderOptions): RenderedIssue {
  const issueUrl = issueUrlOf(issue.slug, options.origin);
  const markdownOptions = {
    pageUrl: issueUrl,
    ...(options.pictures ? { images: options.pictures } : {}),
  };
  const forEmail = (text: string) => replaceMergeFields(text, mergePlaceholder);
  const forWeb = (text: string) => replaceMergeFields(text, (_field, fallback) => fallback);
  const web = renderMarkdown(forWeb(issue.body), markdownOptions);
  const emailBody = forEmail(issue.body);
  // A body without merge fields is one text for both: rendered once.
  const body =
    emailBody === issue.body ? web.emailHtml : renderMarkdown(emailBody, markdownOptions).emailHtml;
  const links = emailLinks(issue.slug, options);
  const { html, text } = renderMail(
    createElement(IssueEmail, {
      title: forEmail(issue.title),
      summary: forEmail(issue.summary),
      issueUrl: links.rewrite(issueUrl),
      bodyHtml: rewriteLinks(body, links.rewrite),
      unsubscribeUrl: UNSUBSCRIBE_URL_PLACEHOLDER,
    }),
  );
  return { emailHtml: html, emailText: text, webHtml: web.webHtml, links: links.links() };
}

/**
 * One recipient's copy: the placeholder replaced by their URL, and each
 * merge field by their value or its fallback (HTML-escaped in the HTML part).
 */
export function personalise(
  rendered: Pick<RenderedIssue, "emailHtml" | "emailText">,
  unsubscribeUrl: string,
  values: MergeValues = {},
): { html: string; text: string } {
  const { html, text } = fillPlaceholders(
    { html: rendered.emailHtml, text: rendered.emailText },
    { [UNSUBSCRIBE_URL_PLACEHOLDER]: unsubscribeUrl },
  );
  return {
    html: fillMergePlaceholders(html, values, escapeHtml),
    text: fillMergePlaceholders(text, values, (value) => value),
  };
}
