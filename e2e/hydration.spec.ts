/**
 * ADR 021: a page's code is fetched only once the page has been painted, its
 * modules all preloaded together, and the page then hydrates
 * (open() waits for that) under its Content-Security-Policy (a refused inline
 * script would be a console error, which fails the test).
 */
import { INSIGHT_PATH, SCREEN_PATHS } from "../src/shared/routes.ts";
import { open, whenHydrated } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

for (const path of [...SCREEN_PATHS, INSIGHT_PATH]) {
  test(`${path} fetches its scripts after its first paint, then hydrates`, async ({ page }) => {
    await open(page, path);
    const timing = await page.evaluate(() => {
      const [firstPaint] = performance.getEntriesByName("first-contentful-paint");
      const scripts = performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name));
      return {
        painted: firstPaint?.startTime ?? Number.NaN,
        firstScript: Math.min(...scripts.map((entry) => entry.startTime)),
        scripts: scripts.length,
      };
    });
    expect(timing.scripts).toBeGreaterThan(5);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.painted);
  });
}

test("the first load's modules are fetched together, not one import level after another", async ({
  page,
}) => {
  // The root route's module is held back. The entry module is imported only
  // once the root module has arrived, unless it was preloaded beside it.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/root-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  // Not until `load`: the held module can delay it.
  await page.goto("/", { waitUntil: "commit" });
  await expect
    .poll(() => requested.some((path) => /^\/assets\/entry\.client-[^/]+\.js$/.test(path)))
    .toBe(true);
  release();
  await whenHydrated(page);
});
