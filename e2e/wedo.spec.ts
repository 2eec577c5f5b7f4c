import { readFileSync } from "node:fs";
import { METHODOLOGY_CASCADE_DAMPING, SCROLL_ANIMATION } from "../src/shared/constants.ts";
import { SITE } from "../src/shared/site.ts";
import { mockApi } from "./support/api.ts";
import { alertDialog, arriveFromHome, open } from "./support/page.ts";
import { expect, loadFailure, test } from "./support/test.ts";

const capabilities: { name: string; description: string }[] = JSON.parse(
  readFileSync("content/items.json", "utf8"),
).capabilities;
const CAPABILITIES_API = /\/api\/v1\/items\/?\?category=capabilities/;

test("What We Do has a looping background video that plays", async ({ page }) => {
  await open(page, "/wedo");
  const video = page.locator(".video-hero video");
  await expect(video).toHaveJSProperty("loop", true);
  await expect(video).toHaveJSProperty("muted", true);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
});

// How much of a description shows at rest, on hover and on focus: e2e/capability-hover.spec.ts.
test("capability cards show the name and the description, in the list's order", async ({
  page,
}) => {
  await open(page, "/wedo");
  const cards = page.locator("#capabilities .capability");
  await expect(cards.locator("h3")).toHaveText(capabilities.map((c) => c.name));
  await expect(cards.locator(".capability__description")).toHaveText(
    capabilities.map((c) => c.description),
  );
  for (const description of await cards.locator(".capability__description").all())
    await expect(description).toBeVisible();
});

test("the methodology lines appear as a cascade, one step of damping × duration apart", async ({
  page,
}) => {
  await open(page, "/wedo");
  const lines = page.locator("#methodology .cascade__line");
  await expect(lines).toHaveText(SITE.methodology);
  const step = METHODOLOGY_CASCADE_DAMPING * SCROLL_ANIMATION.durationMs;
  const delays = await lines.evaluateAll((els) =>
    els.map((el) => getComputedStyle(el).transitionDelay),
  );
  expect(delays).toEqual(
    SITE.methodology.map((_, i) => `${(i * step) / 1000}s, ${(i * step) / 1000}s`),
  );
  await expect(lines.first()).toHaveCSS("opacity", "0");
  await page.locator("#methodology").scrollIntoViewIfNeeded();
  await expect(lines.last()).toHaveCSS("opacity", "1");
});

test("a failed capabilities request shows the error dialog; a 500 leaves the list empty", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure("failed"), { url: CAPABILITIES_API });
  expectedErrors.add(loadFailure(500), { url: CAPABILITIES_API });
  await mockApi(page, CAPABILITIES_API, { fail: true });
  await arriveFromHome(page, "/wedo");
  await expect(alertDialog(page)).toContainText("Oops...");
  await expect(alertDialog(page)).toContainText("Something went wrong!");

  await page.unroute(CAPABILITIES_API);
  await mockApi(page, CAPABILITIES_API, { status: 500 });
  await arriveFromHome(page, "/wedo");
  await expect(page.locator("#capabilities")).toBeAttached();
  await expect(page.locator("#capabilities .capability")).toHaveCount(0);
  await expect(alertDialog(page)).toBeHidden();
});

test.describe("with reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("the cascade appears without motion", async ({ page }) => {
    await open(page, "/wedo");
    const line = page.locator("#methodology .cascade__line").last();
    const duration = await line.evaluate((el) =>
      Number.parseFloat(getComputedStyle(el).transitionDuration),
    );
    expect(duration).toBeLessThanOrEqual(0.001);
    const delay = await line.evaluate((el) =>
      Number.parseFloat(getComputedStyle(el).transitionDelay),
    );
    expect(delay).toBe(0);
  });
});

test.describe("on a touch screen, which cannot hover", () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });

  test("every capability shows its description", async ({ page }) => {
    await open(page, "/wedo");
    const descriptions = page.locator("#capabilities .capability__description");
    await expect(descriptions).toHaveCount(capabilities.length);
    for (const description of await descriptions.all()) await expect(description).toBeVisible();
  });
});
