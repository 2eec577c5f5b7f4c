/**
 * Size budgets on the built site (npm test builds it first). A page's
 * first-load JavaScript is every module its HTML preloads or imports, counted
 * brotli-compressed as it travels; its CSS is the stylesheet inlined in it.
 *
 * The JavaScript budget holds today's size with under 1 KB of room, so any
 * growth fails: 105.7–107.6 KB on the five screens on 2026-11-27, once
 * React, React DOM and React Router's production build travel in one file
 * (ADR 049). The target is 90 KB, and it cannot be reached while React Router
 * hydrates the first load: that one file alone is 89.5 KB (ADR 049 measures
 * the ways past it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadPageRenderer } from "../../src/server/features/pages/index.ts";
import { SCREEN_PATHS } from "../../src/shared/routes.ts";
import { seededPageContext } from "../support/page-context.ts";

const KB = 1024;
const BUDGETS = {
  firstLoadJs: 109 * KB,
  inlineCss: 8 * KB,
  video: 1024 * KB,
  image: 40 * KB,
  /** Each font file a page preloads (ADRs 011, 022), and how many: they compete with the page. */
  preloadedFont: 32 * KB,
  preloadedFonts: 2,
};

const ROOT = "build/client";
const SERVER_BUILD = "build/server/index.js";
const built = existsSync(SERVER_BUILD);
if (!built)
  console.warn(`Budget checks skipped: ${SERVER_BUILD} is missing (npm run build makes it)`);
const render = built ? await loadPageRenderer(SERVER_BUILD) : null;
const context = await seededPageContext();
/** A page as the server renders it. */
async function pageHtml(path: string): Promise<string> {
  if (!render) throw new Error("no server build");
  return (await render(path, context)).html;
}

const brotliSize = (bytes: Buffer | string) => brotliCompressSync(bytes).length;
/** The size the server sends: the build's .br beside the file (small files have none). */
const sentSize = (file: string) =>
  existsSync(`${file}.br`) ? statSync(`${file}.br`).size : brotliSize(readFileSync(file));

/**
 * The script files a page loads before it is interactive: the modules its
 * starter script preloads and those its hydration script imports (ADR 021),
 * every `/assets/….js` its inline scripts name.
 */
function firstLoadScripts(html: string): string[] {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
  const named = inline.flatMap(([, body]) => [
    ...String(body).matchAll(/"(\/assets\/[^"]+\.js)"/g),
  ]);
  return [...new Set(named.map((match) => String(match[1])))];
}

function filesUnder(folder: string, pattern: RegExp): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => pattern.test(file))
    .map((file) => join(ROOT, folder, file));
}

describe("firstLoadScripts", () => {
  it("finds the preloaded modules and the hydration script's imports", () => {
    const html = `<script type="text/x-deferred-module">import "/assets/m.js";
      import * as route0 from "/assets/r.js"; import("/assets/e.js");</script>
      <script>["/assets/m.js","/assets/j.js"].forEach(preload)</script><script src="/assets/x.js"></script>`;
    expect(firstLoadScripts(html).sort()).toEqual([
      "/assets/e.js",
      "/assets/j.js",
      "/assets/m.js",
      "/assets/r.js",
    ]);
  });
});

describe.skipIf(!built)("budgets of the built site", () => {
  it.each(SCREEN_PATHS)(
    `%s loads at most ${BUDGETS.firstLoadJs / KB} KB of JavaScript`,
    async (path) => {
      const scripts = firstLoadScripts(await pageHtml(path));
      expect(scripts.length).toBeGreaterThan(0);
      const total = scripts.reduce((sum, src) => sum + sentSize(join(ROOT, src)), 0);
      expect(total).toBeLessThanOrEqual(BUDGETS.firstLoadJs);
    },
  );

  it.each(SCREEN_PATHS)(`%s inlines at most ${BUDGETS.inlineCss / KB} KB of CSS`, async (path) => {
    const html = await pageHtml(path);
    const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("");
    expect(css.length).toBeGreaterThan(0);
    expect(brotliSize(css)).toBeLessThanOrEqual(BUDGETS.inlineCss);
  });

  it.each(SCREEN_PATHS)(
    `%s preloads at most ${BUDGETS.preloadedFonts} fonts of at most ${BUDGETS.preloadedFont / KB} KB each`,
    async (path) => {
      const html = await pageHtml(path);
      const fonts = [...html.matchAll(/<link rel="preload" as="font"[^>]* href="([^"]+)"/g)].map(
        (match) => String(match[1]),
      );
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.length).toBeLessThanOrEqual(BUDGETS.preloadedFonts);
      for (const href of fonts)
        expect(statSync(join(ROOT, href)).size, href).toBeLessThanOrEqual(BUDGETS.preloadedFont);
    },
  );

  it(`keeps every video under ${BUDGETS.video / KB} KB and every image under ${BUDGETS.image / KB} KB`, () => {
    const over = [
      ...filesUnder("video", /\.(mp4|webm)$/).filter((f) => statSync(f).size > BUDGETS.video),
      ...filesUnder("", /\.(webp|avif|png|jpe?g|svg)$/).filter(
        (f) => statSync(f).size > BUDGETS.image,
      ),
    ];
    expect(over).toEqual([]);
  });
});
