/**
 * The one way a mail is built: one React e-mail component rendered once to
 * static XHTML, and its plain-text part derived from that same HTML by
 * html-to-text, so the two parts can never say different things. A mail
 * sent to many (an Insight issue, an import's confirmations) is rendered
 * once with placeholders and filled per recipient (fillPlaceholders).
 */
import escapeHtml from "escape-html";
import { compile, type DomNode, type FormatCallback } from "html-to-text";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export interface RenderedMail {
  html: string;
  text: string;
}

/**
 * Marks a table whose rows the text part gives as "label: value" lines, the
 * way a reader of plain text expects fields; react-email's own layout
 * tables stay plain blocks.
 */
export const ROWS_IN_TEXT = { "data-text": "rows" } as const;

/**
 * Marks a value someone typed (a visitor's name, say) that the text part
 * keeps on the line it starts on: wrapping must never set one of its words
 * at the start of a line, where "Email: …" inside a name could pass for a
 * field of its own.
 */
export const UNWRAPPED_IN_TEXT = { "data-text": "unwrapped" } as const;

/** The doctype @react-email/render writes; renderToStaticMarkup writes none. */
const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** Headings keep their case in the text part: upper case would change names (dbt, iPhone). */
const HEADINGS_AS_WRITTEN = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
  selector,
  options: { uppercase: false },
}));

/**
 * A picture in the text part: what it shows, so a reader of the text part
 * (or of a screen reader that reads it) misses nothing the picture said. Its
 * address is left out: a file name tells nothing, and the page it came from
 * is one link away. A picture without a description (only possible in an
 * issue saved before descriptions were required) leaves nothing.
 */
const describedPicture: FormatCallback = (element, _walk, builder) => {
  const description = String(element.attribs?.alt ?? "")
    .replace(/\s+/g, " ")
    .trim();
  if (description) builder.addInline(`[Picture: ${description}]`);
};

/** What a cell shows, line by line: HTML's white space runs as one space, `<br>` as a line break. */
function cellLines(cell: DomNode): string[] {
  const shown = (node: DomNode): string => {
    if (node.type === "text") return node.data ?? "";
    if (node.name === "br") return "\n";
    return node.children.map(shown).join("");
  };
  return shown(cell)
    .split("\n")
    .map((line) => line.replace(/[ \t\n\f\r]+/g, " ").trim());
}

const descendants = (node: DomNode, name: string): DomNode[] =>
  (node.children ?? []).flatMap((child) =>
    child.name === name ? [child] : descendants(child, name),
  );

/**
 * A ROWS_IN_TEXT table: each row as "label: value" (several values joined
 * by commas), or, when a value has several lines, the label alone and the
 * lines under it, indented, so that no line of a value someone typed starts
 * at the left edge where the labels are. Written as is, never wrapped, for
 * the same reason.
 */
const labelledRows: FormatCallback = (table, _walk, builder) => {
  const lines = descendants(table, "tr").flatMap((row) => {
    const [label = [""], ...values] = row.children
      .filter((cell) => cell.name === "th" || cell.name === "td")
      .map(cellLines);
    const name = label.join(" ");
    if (values.every((value) => value.length === 1)) {
      return [`${name}: ${values.map(([value]) => value).join(", ")}`];
    }
    return [`${name}:`, ...values.flat().map((line) => (line ? `  ${line}` : ""))];
  });
  builder.openBlock({ leadingLineBreaks: 2, isPre: true });
  builder.addLiteral(lines.join("\n"));
  builder.closeBlock({ trailingLineBreaks: 2 });
};

const unwrapped: FormatCallback = (element, walk, builder) => {
  builder.startNoWrap();
  walk(element.children, builder);
  builder.stopNoWrap();
};

/**
 * The plain-text part: wrapped at 78, links as "text [url]", headings as
 * written, pictures as their description, no hidden preview line.
 */
const toPlainText = compile({
  wordwrap: 78,
  formatters: { describedPicture, labelledRows, unwrapped },
  selectors: [
    ...HEADINGS_AS_WRITTEN,
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    { selector: "img", format: "describedPicture" },
    { selector: "table[data-text=rows]", format: "labelledRows" },
    { selector: "[data-text=unwrapped]", format: "unwrapped" },
    // The hidden preview line (@react-email/preview marks it so).
    { selector: "[data-skip-in-text=true]", format: "skip" },
  ],
});

/** A mail's HTML and plain-text parts, both from `email`. */
export function renderMail(email: ReactElement): RenderedMail {
  const html = XHTML_DOCTYPE + renderToStaticMarkup(email);
  return { html, text: toPlainText(html) };
}

/**
 * One recipient's copy of a mail rendered once: each placeholder replaced by
 * its value, HTML-escaped in the HTML part. A placeholder must be one that
 * neither React's escaping nor the text conversion changes (letters, digits,
 * `.-/:@{}`), so it reads the same in both parts. A placeholder missing
 * from either part is refused: a copy without the recipient's own link
 * must never go out.
 */
export function fillPlaceholders(
  template: RenderedMail,
  values: Readonly<Record<string, string>>,
): RenderedMail {
  // split/join rather than replaceAll: a "$&" in a value must stay literal.
  const fill = (part: string, placeholder: string, value: string) => {
    const pieces = part.split(placeholder);
    if (pieces.length < 2) throw new Error(`The mail lost its placeholder ${placeholder}.`);
    return pieces.join(value);
  };
  let { html, text } = template;
  for (const [placeholder, value] of Object.entries(values)) {
    html = fill(html, placeholder, escapeHtml(value));
    text = fill(text, placeholder, value);
  }
  return { html, text };
}
