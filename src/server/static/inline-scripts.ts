/**
 * The prerendered pages carry small inline scripts (React Router's hydration
 * context). Their hashes go into the Content-Security-Policy so that no other
 * inline script can run.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

export function hashInlineScripts(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1] ?? "")
    .filter((body) => body.length > 0)
    .map((body) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
}

export async function inlineScriptHashes(staticDir: string): Promise<string[]> {
  const entries = await readdir(staticDir, { recursive: true }).catch(() => []);
  const pages = entries.filter((entry) => entry.endsWith(".html"));
  const hashes = await Promise.all(
    pages.map(async (page) => hashInlineScripts(await readFile(join(staticDir, page), "utf8"))),
  );
  return [...new Set(hashes.flat())].sort();
}
