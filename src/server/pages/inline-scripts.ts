/**
 * Rendered pages carry small inline scripts (React Router's hydration context
 * and data). Their hashes go into each page's Content-Security-Policy, so that
 * no other inline script can run.
 */
import { createHash } from "node:crypto";

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

export function hashInlineScripts(html: string): string[] {
  const hashes = [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1] ?? "")
    .filter((body) => body.length > 0)
    .map((body) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
  return [...new Set(hashes)];
}
