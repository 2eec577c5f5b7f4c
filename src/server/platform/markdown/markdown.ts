/**
 * An Insight issue's Markdown, parsed once and rendered twice: plain semantic
 * HTML for the archive page, and the e-mail's body, where every element
 * carries its style inline (mail clients drop or ignore style sheets) and
 * every URL is absolute (a mail client has no page to resolve a relative one
 * against).
 *
 * Raw HTML is never passed through: with `html: false` markdown-it escapes it
 * as text. Its link check (kept as it is) refuses javascript:, vbscript:,
 * file: and data: URLs, but for data:image/{gif,png,jpeg,webp}; a refused
 * link stays as the literal Markdown text.
 */
import MarkdownIt, { type Token } from "markdown-it";
import { COLORS } from "../../../shared/design-tokens.ts";

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The e-mail's font: one every mail client has. */
export const EMAIL_FONT = "Arial,Helvetica,sans-serif";

/** The e-mail's column: fluid up to this width, with this padding either side. */
export const EMAIL_COLUMN = { width: 600, padding: 24 } as const;

/**
 * The body's width inside the column. A picture whose size is known is
 * shown at most this wide, with a width and height that keep its shape; one
 * whose size is not gets this width alone. Outlook ignores max-width and
 * lays out by these attributes, so without them a picture widens the e-mail.
 */
export const EMAIL_BODY_WIDTH = EMAIL_COLUMN.width - 2 * EMAIL_COLUMN.padding;

/** The file an e-mail shows for a picture of the body, and that file's real size in pixels. */
export interface EmailImage {
  src: string;
  width: number;
  height: number;
}

/** The e-mail's pictures by the absolute address the body gives them. */
export type EmailImages = ReadonlyMap<string, EmailImage>;

/** A picture's width and height attributes: its own size, shrunk to the body's width if wider. */
function shownSize({ width, height }: EmailImage): { width: number; height: number } {
  const shown = Math.min(width, EMAIL_BODY_WIDTH);
  return { width: shown, height: Math.max(1, Math.round((height * shown) / width)) };
}

const MONOSPACE = "Menlo,Consolas,monospace";
const CODE_IN_BLOCK_STYLE = `font-family:${MONOSPACE};font-size:13px`;
const text = (color: string, margin = "0 0 16px") =>
  `margin:${margin};font-family:${EMAIL_FONT};font-size:16px;line-height:1.6;color:${color}`;
const heading = (size: number) =>
  `margin:28px 0 12px;font-family:${EMAIL_FONT};font-size:${size}px;line-height:1.3;font-weight:bold;color:${COLORS.ink}`;
const cell = `padding:6px 12px;border:1px solid ${COLORS.line};font-family:${EMAIL_FONT};font-size:15px;color:${COLORS.ink}`;

/** Each element's inline style in the e-mail, by tag (`pre` for code blocks). */
const EMAIL_STYLES: Record<string, string> = {
  p: text(COLORS.ink),
  h1: heading(24),
  h2: heading(21),
  h3: heading(18),
  h4: heading(16),
  h5: heading(16),
  h6: heading(16),
  a: `color:${COLORS.accentInk};text-decoration:underline`,
  img: "display:block;max-width:100%;height:auto;border:0",
  blockquote: `margin:0 0 16px;padding:4px 0 4px 16px;border-left:4px solid ${COLORS.accent}`,
  ul: "margin:0 0 16px;padding:0 0 0 24px",
  ol: "margin:0 0 16px;padding:0 0 0 24px",
  li: text(COLORS.ink, "0 0 8px"),
  strong: "font-weight:bold",
  em: "font-style:italic",
  s: "text-decoration:line-through",
  code: `font-family:${MONOSPACE};font-size:14px;background-color:${COLORS.paperWarm};padding:1px 4px`,
  pre: `margin:0 0 16px;padding:12px 16px;background-color:${COLORS.paperWarm};font-family:${MONOSPACE};font-size:13px;line-height:1.5;color:${COLORS.ink};white-space:pre-wrap;word-wrap:break-word`,
  hr: `margin:24px 0;border:0;border-top:1px solid ${COLORS.line}`,
  table: "margin:0 0 16px;border-collapse:collapse",
  th: `${cell};text-align:left;font-weight:bold`,
  td: cell,
};

/** A paragraph in a quote is set apart by its colour as well as the quote's rule. */
const QUOTED_PARAGRAPH_STYLE = text(COLORS.inkSoft);

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** A relative URL resolved against the page, as the archive page resolves it; others as they are. */
export function absoluteUrl(url: string, pageUrl: string): string {
  if (HAS_SCHEME.test(url) || !URL.canParse(url, pageUrl)) return url;
  return new URL(url, pageUrl).href;
}

function emailStyle(token: Token, inQuote: boolean): string | undefined {
  if (token.type === "code_block" || token.type === "fence") return EMAIL_STYLES.pre;
  if (token.type === "paragraph_open" && inQuote) return QUOTED_PARAGRAPH_STYLE;
  return EMAIL_STYLES[token.tag];
}

/** A copy of the token (and its children) as the e-mail shows it; the web's tokens stay untouched. */
function emailToken(token: Token, context: EmailContext, inQuote: boolean): Token {
  const { pageUrl, images } = context;
  const copy: Token = Object.assign(
    new MarkdownIt.Token(token.type, token.tag, token.nesting),
    token,
    {
      attrs: token.attrs?.map(([name, value]): [string, string | number] => [name, value]) ?? null,
      children: token.children?.map((child) => emailToken(child, context, inQuote)) ?? null,
    },
  );
  if (copy.nesting !== -1) {
    const style = emailStyle(copy, inQuote);
    // Keep markdown-it's own style (a table column's alignment) after ours.
    const own = copy.attrGet("style");
    if (style) copy.attrSet("style", own ? `${style};${own}` : style);
  }
  for (const name of ["href", "src"]) {
    const url = copy.attrGet(name);
    if (typeof url === "string") copy.attrSet(name, absoluteUrl(url, pageUrl));
  }
  if (copy.type === "image") {
    const image = images.get(String(copy.attrGet("src")));
    if (image) {
      const { width, height } = shownSize(image);
      copy.attrSet("src", image.src);
      copy.attrSet("width", width);
      copy.attrSet("height", height);
    } else {
      copy.attrSet("width", EMAIL_BODY_WIDTH);
    }
  }
  return copy;
}

interface EmailContext {
  pageUrl: string;
  images: EmailImages;
}

/**
 * The e-mail's renderer: markdown-it's own, but for code blocks, whose rules
 * put the attributes on one element only and write the other bare. Here the
 * box (<pre>) gets the token's style and the <code> in it a style of its own;
 * a fence's language class is of no use in an e-mail.
 */
const emailRenderer = new MarkdownIt.Renderer();
emailRenderer.rules.code_block = (tokens, idx, _options, _env, renderer) => {
  const token = tokens[idx] as Token;
  const code = markdown.utils.escapeHtml(token.content);
  return `<pre${renderer.renderAttrs(token)}><code style="${CODE_IN_BLOCK_STYLE}">${code}</code></pre>\n`;
};
emailRenderer.rules.fence = emailRenderer.rules.code_block;

function emailTokens(tokens: Token[], context: EmailContext): Token[] {
  let quoteDepth = 0;
  return tokens.map((token) => {
    if (token.type === "blockquote_open") quoteDepth += 1;
    if (token.type === "blockquote_close") quoteDepth -= 1;
    return emailToken(token, context, quoteDepth > 0);
  });
}

export interface RenderedMarkdown {
  /** Plain semantic HTML for the archive page; relative URLs stay relative. */
  webHtml: string;
  /** The e-mail's body: inline styles on every element, absolute URLs. */
  emailHtml: string;
}

/** Markdown as plain semantic HTML, for a page of the site (the privacy notice). */
export function renderPageMarkdown(source: string): string {
  return markdown.render(source);
}

export interface MarkdownImage {
  /** The address as written, which the web page uses. */
  src: string;
  /** What the picture shows, as written between the brackets; empty when nothing is. */
  alt: string;
}

/** Every picture in the Markdown, in order, as the parser finds them (none from code or escaped text). */
export function imagesOf(source: string): MarkdownImage[] {
  const found: MarkdownImage[] = [];
  for (const token of markdown.parse(source, {})) {
    for (const child of token.children ?? []) {
      if (child.type !== "image") continue;
      found.push({ src: String(child.attrGet("src") ?? ""), alt: child.content.trim() });
    }
  }
  return found;
}

export interface EmailOptions {
  /** The absolute address: the e-mail's relative URLs resolve against it. */
  pageUrl: string;
  /**
   * The pictures whose e-mail file and size are known, by their absolute
   * address; the others keep their address and get the body's width.
   */
  images?: EmailImages;
}

/**
 * Renders an issue's Markdown for the web and for the e-mail from one parse.
 * The e-mail's relative URLs resolve against the page, so they lead
 * where the page's do.
 */
export function renderMarkdown(
  source: string,
  { pageUrl, images = new Map() }: EmailOptions,
): RenderedMarkdown {
  const env = {};
  const tokens = markdown.parse(source, env);
  const forEmail = emailTokens(tokens, { pageUrl, images });
  return {
    webHtml: markdown.renderer.render(tokens, markdown.options, env),
    emailHtml: emailRenderer.render(forEmail, markdown.options, env),
  };
}
