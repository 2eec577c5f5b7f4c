/**
 * Rendered pages carry small inline scripts (React Router's hydration context
 * and data) and one inline stylesheet (root.tsx: the site's CSS, inlined so
 * the first paint needs no second request). Their hashes go into each page's
 * Content-Security-Policy, so that no other inline script or style can apply.
 */
import { createHash } from "node:crypto";
import { type ElementSpan, elementsNamed } from "../../../shared/html-elements.ts";
import type { InlineHashes } from "../../platform/security/headers.ts";

function hashBodies(elements: ElementSpan[]): string[] {
  const hashes = elements
    .map(({ body }) => body)
    .filter((body) => body.length > 0)
    .map((body) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
  return [...new Set(hashes)];
}

/** A script element that loads a file: its body, if any, never runs. */
const loadsFile = ({ startTag }: ElementSpan) => startTag.includes(" src=");

export const hashInlineScripts = (html: string) =>
  hashBodies(elementsNamed(html, "script").filter((element) => !loadsFile(element)));
export const hashInlineStyles = (html: string) => hashBodies(elementsNamed(html, "style"));

export function hashInlineContent(html: string): InlineHashes {
  return { scripts: hashInlineScripts(html), styles: hashInlineStyles(html) };
}
