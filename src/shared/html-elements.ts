/**
 * The script and style elements of HTML the site rendered itself, found by
 * scanning forward with indexOf: each character is looked at a bounded
 * number of times, however the page is written. (A regular expression such
 * as `<script[^>]*>[\s\S]*?</script>` tries again from every `<script`
 * it meets, and a page of many unclosed ones takes quadratic time.)
 *
 * It reads the renderers' own output, not any HTML: an element ends at the
 * first `</name>` after it, and its start tag at the first `>`, which React
 * never writes inside an attribute's value (it escapes it).
 */
/** A stretch of the page: from `start` up to, not including, `end`. */
export interface Span {
  start: number;
  end: number;
}

/** A start tag alone, `<link …>`. */
export interface TagSpan extends Span {
  tag: string;
}

/** A whole element, from its start tag to just after its end tag. */
export interface ElementSpan extends Span {
  /** The start tag, `<name …>`. */
  startTag: string;
  /** The text between the start tag and the end tag. */
  body: string;
}

/** Whether the character after `<name` ends the name (so `<scripts` is not `<script`). */
function endsName(character: string | undefined): boolean {
  return (
    character === ">" ||
    character === "/" ||
    character === " " ||
    character === "\t" ||
    character === "\n" ||
    character === "\r" ||
    character === "\f"
  );
}

/** Every complete `<name …>…</name>` element in `html`, in order. */
export function elementsNamed(html: string, name: "script" | "style"): ElementSpan[] {
  const open = `<${name}`;
  const close = `</${name}>`;
  const spans: ElementSpan[] = [];
  let from = 0;
  for (;;) {
    const start = html.indexOf(open, from);
    if (start === -1) return spans;
    if (!endsName(html[start + open.length])) {
      from = start + open.length;
      continue;
    }
    const tagEnd = html.indexOf(">", start + open.length);
    if (tagEnd === -1) return spans;
    const closeAt = html.indexOf(close, tagEnd + 1);
    // No end tag after this one: none after any later start tag either.
    if (closeAt === -1) return spans;
    spans.push({
      start,
      startTag: html.slice(start, tagEnd + 1),
      body: html.slice(tagEnd + 1, closeAt),
      end: closeAt + close.length,
    });
    from = closeAt + close.length;
  }
}

/** Every start tag that begins with `prefix` (such as `<link rel="modulepreload"`), in order. */
export function tagsBeginning(html: string, prefix: string): TagSpan[] {
  const tags: TagSpan[] = [];
  let from = 0;
  for (;;) {
    const start = html.indexOf(prefix, from);
    if (start === -1) return tags;
    const tagEnd = html.indexOf(">", start + prefix.length);
    if (tagEnd === -1) return tags;
    tags.push({ start, end: tagEnd + 1, tag: html.slice(start, tagEnd + 1) });
    from = tagEnd + 1;
  }
}

/**
 * `html` with each span cut out and the text `replace` gives in its place;
 * the spans in order, none overlapping another.
 */
export function replaceSpans<S extends Span>(
  html: string,
  spans: readonly S[],
  replace: (span: S) => string,
): string {
  let result = "";
  let from = 0;
  for (const span of spans) {
    result += html.slice(from, span.start) + replace(span);
    from = span.end;
  }
  return result + html.slice(from);
}
