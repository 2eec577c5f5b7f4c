/**
 * Every screen loads whole, and (ADR 021) its code is fetched only once the
 * page has been painted, then it hydrates (open() waits for that) under its
 * Content-Security-Policy: a refused inline script would be a console error,
 * and console errors and page errors fail every test (support/test.ts).
 */
import { INSIGHT_PATH, SCREEN_PATHS } from "../src/shared/routes.ts";
import { NOT_FOUND_SEO } from "../src/web/lib/seo.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

/** When the page painted first, when its first script was asked for, and how many it asked for. */
function scriptTiming(page: Page) {
  return page.evaluate(() => {
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
}

for (const path of [...SCREEN_PATHS, INSIGHT_PATH]) {
  test(`${path} loads with header and footer, fetches its scripts after its first paint, hydrates, and logs no error`, async ({
    page,
  }) => {
    const response = await open(page, path);
    expect(response?.status()).toBe(200);
    const timing = await scriptTiming(page);
    expect(timing.scripts).toBeGreaterThan(5);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.painted);
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    // Waits for every list of the page, so late errors are seen too.
    await waitUntilSettled(page);
  });
}

test("an unknown path shows the Home page with status 404", async ({ page, expectedErrors }) => {
  expectedErrors.add(loadFailure(404), { url: /\/no\/such\/page$/ });
  const response = await open(page, "/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business + Technology");
  await expect(page.getByRole("heading", { name: /You Know the Business/ })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page).toHaveTitle(NOT_FOUND_SEO.title);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  // No menu entry claims this page, on a wide screen or in the phone menu.
  await expect(page.locator('header [aria-current="page"], header a.active')).toHaveCount(0);
});

test("a page whose code fails to download shows the error screen with a retry", async ({
  page,
  expectedErrors,
}) => {
  await open(page, "/");
  // Who We Are's route module cannot be fetched (a deploy replaced it, or the network dropped).
  let blocked = true;
  await page.route(/\/assets\/weare-[^/]+\.js$/, (route) =>
    blocked ? route.abort("failed") : route.continue(),
  );
  // Chromium logs the failed request; React Router logs the failure and its error.
  expectedErrors.add(loadFailure("failed"), { url: /\/assets\/weare-/ });
  expectedErrors.add(/^Error loading route module `[^`]+weare-[^`]+`, reloading page\.\.\.$/);
  expectedErrors.add(/^TypeError: Failed to fetch dynamically imported module: /);
  const reloads: string[] = [];
  page.on("load", () => reloads.push(page.url()));
  await page.locator('main a[href="/weare"]').first().click();
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByText(/this page's code could not be downloaded/)).toBeVisible();
  expect(reloads).toEqual([]);
  blocked = false;
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Who We Are");
});

test("the web manifest, its icons and the share image are served", async ({ request }) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const { icons } = (await manifest.json()) as { icons: { src: string; type: string }[] };
  expect(icons.length).toBeGreaterThanOrEqual(3);
  for (const src of [...icons.map((icon) => icon.src), "/images/share.png"]) {
    const file = await request.get(src);
    expect(file.status(), src).toBe(200);
    expect(file.headers()["content-type"], src).toBe("image/png");
  }
});
