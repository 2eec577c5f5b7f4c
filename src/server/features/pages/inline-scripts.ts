/**
 * Rendered pages carry small inline scripts (React Router's hydration context
 * and data) and one inline stylesheet (root.tsx: the site's CSS, inlined so
 * the first paint needs no second request). Their hashes go into each page's
 * Content-Security-Policy, so that no other inline script or style can apply.
 */
import { createHash } from "node:crypto";
import type { InlineHashes } from "../../platform/security/headers.ts";

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style[^>]*>([\s\S]*?)<\/style>/g;

function hashBodies(html: string, element: RegExp): string[] {
  const hashes = [...html.matchAll(element)]
    .map((match) => match[1] ?? "")
    .filter((body) => body.length > 0)
    .map((body) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
  return [...new Set(hashes)];
}

export const hashInlineScripts = (html: string) => hashBodies(html, INLINE_SCRIPT);
export const hashInlineStyles = (html: string) => hashBodies(html, INLINE_STYLE);

export function hashInlineContent(html: string): InlineHashes {
  return { scripts: hashInlineScripts(html), styles: hashInlineStyles(html) };
}
