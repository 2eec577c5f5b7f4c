/**
 * ADR 021: a page's modules are all preloaded together, so the first load
 * waits for no import level after another. That each screen's code comes
 * after its first paint and then hydrates is shown with its visit in
 * routes.spec.ts.
 */

import { whenHydrated } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

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
