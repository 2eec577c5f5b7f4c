/**
 * The frame every plain e-mail of the site shares: its HTML page and
 * paragraphs, and how a typed value is kept on one line. Each value a
 * visitor typed is escaped in the HTML part, and folded to one line where it
 * goes into a header or a one-line position of the text part.
 */
import escapeHtml from "escape-html";
import { COLORS } from "../../../shared/design-tokens.ts";
import { SITE } from "../../../shared/site.ts";

/** Folds line breaks and any other control character (U+0085 breaks lines too) to spaces. */
export const oneLine = (value: string) => value.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** A multi-line value's lines, whichever line breaks it was typed with. */
export const linesOf = (value: string) => value.split(/\r\n|[\n\r\u2028\u2029\u0085]/);

export function mailPage(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:${COLORS.paperWarm};font-family:Arial,Helvetica,sans-serif;color:${COLORS.ink}">
<div style="max-width:600px;margin:0 auto;background:${COLORS.paper};border-top:6px solid ${COLORS.accent};padding:32px">
${body}
<p style="margin-top:32px;font-size:13px;color:${COLORS.inkSoft}">${escapeHtml(SITE.firmName)}</p>
</div></body></html>`;
}

export const paragraph = (text: string) =>
  `<p style="line-height:1.6;margin:0 0 16px">${escapeHtml(text)}</p>`;
