/**
 * The site's typefaces (ADR 011): Inter for text, Source Serif 4 for headings,
 * served from our own origin, preloaded, and shown at once in metric-matched
 * fallbacks that the web fonts replace without moving anything.
 */
import type { Page } from "@playwright/test";
import { open, waitUntilSettled, whenHydrated } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

const SANS = "Inter";
const SERIF = "Source Serif 4";
/** The path of a font file: hashed, under /assets/ (not inlined, not from elsewhere). */
const FONT_FILE = /^\/assets\/[\w-]+\.woff2$/;
const FONT_REQUEST = /\/assets\/[\w-]+\.woff2$/;

/** The families the browser actually drew an element's text with (DevTools' "Rendered Fonts"). */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument");
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

/** The status of each @font-face of a family, as `document.fonts` reports it. */
function fontStatus(page: Page, family: string): Promise<string[]> {
  return page.evaluate(
    (family) =>
      [...document.fonts]
        .filter((face) => face.family.replace(/"/g, "") === family)
        .map((face) => face.status),
    family,
  );
}

test("headings are set in Source Serif 4 and text in Inter, both loaded", async ({ page }) => {
  for (const path of ["/weare", "/wedo"]) {
    await open(page, path);
    await page.evaluate(() => document.fonts.ready);
    await expect(page.locator("body")).toHaveCSS("font-family", /^Inter, "Inter Fallback"/);
    for (const heading of ["h1", "h2"])
      await expect(page.locator(heading).first()).toHaveCSS(
        "font-family",
        /^"Source Serif 4", "Source Serif Fallback"/,
      );
    expect(await fontStatus(page, SANS)).toEqual(["loaded"]);
    expect(await fontStatus(page, SERIF)).toEqual(["loaded"]);
    expect(await page.evaluate(() => document.fonts.check('600 40px "Source Serif 4"'))).toBe(true);
    // What was drawn, not only what was asked for.
    expect(await renderedFonts(page, "h1")).toEqual([SERIF]);
    expect(await renderedFonts(page, "main p")).toEqual([SANS]);
  }
});

test("the font files come from our own origin, preloaded and fetched once each", async ({
  page,
  baseURL,
}) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "font") fetched.push(request.url());
  });
  const response = await open(page, "/wedo");
  await page.evaluate(() => document.fonts.ready);
  await expect.poll(() => fontStatus(page, SERIF)).toEqual(["loaded"]);

  const origin = new URL(baseURL ?? "").origin;
  const paths = fetched.map((url) => {
    expect(new URL(url).origin, url).toBe(origin);
    return new URL(url).pathname;
  });
  expect(paths).toHaveLength(2);
  for (const path of paths) expect(path).toMatch(FONT_FILE);

  // The preloads point at exactly the files the @font-face rules use, so the
  // browser reuses them instead of fetching a second copy.
  const preloads = await page.locator('head link[rel="preload"][as="font"]').evaluateAll((links) =>
    links.map((link) => ({
      href: link.getAttribute("href"),
      type: link.getAttribute("type"),
      crossorigin: link.getAttribute("crossorigin"),
    })),
  );
  expect(preloads.map((link) => link.href).sort()).toEqual([...paths].sort());
  for (const link of preloads) {
    expect(link.type).toBe("font/woff2");
    expect(link.crossorigin).toBe("anonymous");
  }

  // The inlined stylesheet names the files by URL: no font is inlined as a data: URI.
  const html = (await response?.text()) ?? "";
  const sources = [...html.matchAll(/src:\s*url\(([^)]+)\)/g)].map((match) => match[1]);
  expect(sources.sort()).toEqual([...paths].sort());
  expect(html).not.toContain("data:font");

  for (const path of paths) {
    const file = await page.request.get(path);
    expect(file.headers()["content-type"]).toBe("font/woff2");
    expect(file.headers()["cache-control"]).toContain("immutable");
  }
});

/**
 * What every page shows first, the site header and the page's hero (the first
 * section of main): for each heading, paragraph, list item, link and button,
 * its box and the box of its text (from the top of its first line's glyph
 * ascent to the bottom of its last line's descent), in page coordinates.
 */
function firstScreenBoxes(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body > header, main > :first-child")]
      .flatMap((part) => [...part.querySelectorAll("h1, h2, h3, p, li, a, button")])
      .filter((el) => el.getClientRects().length > 0 && el.textContent?.trim())
      .map((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        return {
          block: `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"`,
          top: box.top + window.scrollY,
          height: box.height,
          textTop: text.top + window.scrollY,
          textHeight: text.height,
          textWidth: text.width,
        };
      }),
  );
}

/** A phone's first screen and a laptop's. */
const SCREENS = [
  { width: 375, height: 667 },
  { width: 1440, height: 900 },
];

for (const screen of SCREENS) {
  for (const path of ["/weare", "/wedo"]) {
    test(`${path} at ${screen.width} px: the swap from the fallback fonts to the web fonts moves nothing in the header and hero`, async ({
      page,
    }) => {
      await page.setViewportSize(screen);
      // Hold every font request until the page has been measured in the fallbacks.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(FONT_REQUEST, async (route) => {
        await held;
        await route.continue();
      });

      // Not open(): page.goto waits for the load event, which waits for the preloaded fonts.
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await whenHydrated(page);
      await waitUntilSettled(page);
      expect(await fontStatus(page, SANS)).toEqual(["loading"]);
      expect(await fontStatus(page, SERIF)).toEqual(["loading"]);
      // The metric-matched faces stand in: local fonts, not the system's default.
      expect(await fontStatus(page, "Inter Fallback")).toContain("loaded");
      expect(await fontStatus(page, "Source Serif Fallback")).toContain("loaded");
      expect(await renderedFonts(page, "h1")).not.toContain(SERIF);
      const before = await firstScreenBoxes(page);
      expect(before.length).toBeGreaterThan(2);

      release();
      await expect.poll(() => fontStatus(page, SANS)).toEqual(["loaded"]);
      await expect.poll(() => fontStatus(page, SERIF)).toEqual(["loaded"]);
      expect(await renderedFonts(page, "h1")).toEqual([SERIF]);
      // Measuring lays the page out again with the fonts now loaded.
      const after = await firstScreenBoxes(page);

      // Line boxes take their height from line-height, not from the font, so a
      // rewrapped line costs a whole line (20 px or more), and a glyph ascent or
      // descent that differs by 10% of the font size moves the text 2 to 7 px.
      // The 1 px allowed is rounding: Chromium rounds each font's ascent and
      // descent to whole pixels, which can move a baseline by under a pixel.
      // Widths are matched on average, not word by word: a label can come out
      // a few per cent wider or narrower (an unmatched fallback is 10-20% off).
      expect(after.map((box) => box.block)).toEqual(before.map((box) => box.block));
      for (const [index, box] of after.entries()) {
        const was = before[index];
        if (!was) continue;
        for (const edge of ["top", "height", "textTop", "textHeight"] as const)
          expect(Math.abs(box[edge] - was[edge]), `${edge} of ${box.block}`).toBeLessThanOrEqual(1);
        expect(box.textWidth / was.textWidth, `text width of ${box.block}`).toBeCloseTo(1, 1);
      }
    });
  }
}
