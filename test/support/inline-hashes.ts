/**
 * What a page's Content-Security-Policy must allow of its inline scripts and
 * styles, worked out from the served HTML as a browser checks it: the
 * SHA-256 of each element's text, in base64, in the order they appear and
 * each once. A script that loads a file is left out, as its text never runs,
 * and so is an empty element.
 */
import { createHash } from "node:crypto";
import { type ElementSpan, elementsNamed } from "../../src/shared/html-elements.ts";

function hashesOf(elements: ElementSpan[]): string[] {
  const hashes = elements
    .filter(({ body }) => body.length > 0)
    .map(({ body }) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
  return [...new Set(hashes)];
}

export const inlineScriptHashes = (html: string) =>
  hashesOf(elementsNamed(html, "script").filter(({ startTag }) => !startTag.includes(" src=")));

export const inlineStyleHashes = (html: string) => hashesOf(elementsNamed(html, "style"));
