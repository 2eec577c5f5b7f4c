/**
 * An Insight issue rendered once: the e-mail's HTML and plain-text parts, with
 * a placeholder where each recipient's unsubscribe URL goes, and the HTML of
 * its archive page. `personalise` makes one recipient's copy by substitution,
 * so a send of any size renders the issue a single time (ADR 019).
 */
import escapeHtml from "escape-html";
import { compile, type FormatCallback } from "html-to-text";
import { createElement } from "react";
import { insightIssuePath } from "../../../shared/routes.ts";
import { type EmailImages, renderMarkdown } from "../../platform/markdown/markdown.ts";
import { renderEmailHtml } from "../../platform/outbox/layout.tsx";
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

/** Headings keep their case in the text part: upper case would change names (dbt, iPhone). */
const HEADINGS_AS_WRITTEN = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
  selector,
  options: { uppercase: false },
}));

/**
 * A picture in the text part: what it shows, so a reader of the text part
 * (or of a screen reader that reads it) misses nothing the picture said. Its
 * address is left out: a file name tells nothing, and the issue's page is
 * one link away. A picture without a description (only possible in an
 * issue saved before descriptions were required) leaves nothing.
 */
const describedPicture: FormatCallback = (element, _walk, builder) => {
  const description = String(element.attribs?.alt ?? "")
    .replace(/\s+/g, " ")
    .trim();
  if (description) builder.addInline(`[Picture: ${description}]`);
};

/** The plain-text part: links as "text [url]", pictures as their description, no hidden preview line. */
const toPlainText = compile({
  wordwrap: 78,
  formatters: { describedPicture },
  selectors: [
    ...HEADINGS_AS_WRITTEN,
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    { selector: "img", format: "describedPicture" },
    // The hidden preview line (@react-email/preview marks it so).
    { selector: "[data-skip-in-text=true]", format: "skip" },
  ],
});

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
 * editor put on a link themselves. The unsubscribe placeholder is on a
 * domain of its own and is never touched.
 */
export function tagOwnLinks(html: string, origin: string, slug: string): string {
  const site = new URL(origin).origin;
  const tags = Object.entries(insightTags(slug));
  return html.replace(/\bhref="([^"]*)"/g, (whole, escaped: string) => {
    let url: URL;
    try {
      url = new URL(escaped.replace(/&amp;/g, "&"));
    } catch {
      return whole;
    }
    if (url.origin !== site) return whole;
    for (const [name, value] of tags) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, value);
    }
    return `href="${escapeHtml(url.href)}"`;
  });
}

export function renderIssue(issue: IssueSource, options: RenderOptions): RenderedIssue {
  const issueUrl = issueUrlOf(issue.slug, options.origin);
  const { webHtml, emailHtml: bodyHtml } = renderMarkdown(issue.body, {
    pageUrl: issueUrl,
    ...(options.pictures ? { images: options.pictures } : {}),
  });
  const untagged = renderEmailHtml(
    createElement(IssueEmail, {
      title: issue.title,
      summary: issue.summary,
      issueUrl,
      bodyHtml,
      unsubscribeUrl: UNSUBSCRIBE_URL_PLACEHOLDER,
    }),
  );
  const emailHtml = options.tagLinks ? tagOwnLinks(untagged, options.origin, issue.slug) : untagged;
  const emailText = toPlainText(emailHtml);
  // A copy without its unsubscribe link must never go out: refuse to render
  // one, should a library ever start to rewrite the placeholder.
  if (!emailHtml.includes(UNSUBSCRIBE_URL_PLACEHOLDER)) {
    throw new Error("The e-mail's HTML lost the unsubscribe placeholder.");
  }
  if (!emailText.includes(UNSUBSCRIBE_URL_PLACEHOLDER)) {
    throw new Error("The e-mail's text lost the unsubscribe placeholder.");
  }
  return { emailHtml, emailText, webHtml };
}

/** One recipient's copy: the placeholder replaced by their URL (HTML-escaped in the HTML part). */
export function personalise(
  rendered: Pick<RenderedIssue, "emailHtml" | "emailText">,
  unsubscribeUrl: string,
): { html: string; text: string } {
  // split/join rather than replaceAll: a "$&" in the URL must stay literal.
  const substitute = (part: string, value: string) =>
    part.split(UNSUBSCRIBE_URL_PLACEHOLDER).join(value);
  return {
    html: substitute(rendered.emailHtml, escapeHtml(unsubscribeUrl)),
    text: substitute(rendered.emailText, unsubscribeUrl),
  };
}
