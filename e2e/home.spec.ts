import { ACCENT_COLOR } from "../src/shared/constants.ts";
import { SITE } from "../src/shared/site.ts";
import { VIDEO_CONTROL_LABEL } from "../src/web/components/BackgroundVideo.tsx";
import { open } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

const accentRgb = `rgb(${[1, 3, 5].map((i) => Number.parseInt(ACCENT_COLOR.slice(i, i + 2), 16)).join(", ")})`;

test("Home: a looping, muted, inline video that plays, with Business + Technology over it", async ({
  page,
}) => {
  await open(page, "/");
  const video = page.locator(".home-hero video");
  await expect(video).toHaveJSProperty("muted", true);
  await expect(video).toHaveJSProperty("loop", true);
  await expect(video).toHaveAttribute("playsinline", "");
  await expect(video).toHaveAttribute("poster", "/video/home-poster.webp");
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0))
    .toBe(true);
  await expect(page.locator(".home-hero__word")).toHaveText(["Business", "+", "Technology"]);
});

test("Home: the orange mission banner and the headline with its contact us link", async ({
  page,
}) => {
  await open(page, "/");
  const banner = page.getByRole("region", { name: "Our mission" });
  await expect(banner).toHaveText(SITE.mission);
  expect(await banner.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(accentRgb);
  await expect(
    page.getByRole("heading", { level: 2, name: "You Know the Business We Know the Tech" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "contact us", exact: true }).click();
  await expect(page).toHaveURL(/\/contact-us$/);
});

test.describe("with reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("fade-in sections change without motion", async ({ page }) => {
    await open(page, "/weserve");
    const reveal = page.locator(".reveal").first();
    await expect(reveal).toBeAttached();
    const duration = await reveal.evaluate((el) =>
      Number.parseFloat(getComputedStyle(el).transitionDuration),
    );
    expect(duration).toBeLessThanOrEqual(0.001);
  });

  test("videos do not autoplay; the poster shows", async ({ page }) => {
    // Every call to play(), counted from before the page's own scripts run.
    await page.addInitScript(() => {
      const calls = { count: 0 };
      Object.assign(window, { playCalls: calls });
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        calls.count += 1;
        return play.call(this);
      };
    });
    for (const path of ["/", "/wedo"]) {
      await open(page, path);
      const video = page.locator("video");
      // Hydrated: the video's effect, which would call play(), has run (a
      // child's effects run before the root's, which marks the page hydrated).
      // With no autoplay attribute and no call to play(), it cannot start.
      await expect(video).not.toHaveAttribute("autoplay");
      expect(
        await page.evaluate(
          () => (window as unknown as { playCalls: { count: number } }).playCalls.count,
        ),
      ).toBe(0);
      await expect(video).toHaveJSProperty("paused", true);
      await expect(video).toHaveJSProperty("currentTime", 0);
    }
  });
});

test.describe("the background videos' pause control (WCAG 2.2.2)", () => {
  for (const path of ["/", "/wedo"]) {
    test(`pauses and plays the video on ${path}`, async ({ page }) => {
      await open(page, path);
      const video = page.locator("video");
      const control = page.getByRole("button", { name: VIDEO_CONTROL_LABEL.pause });
      await expect(control).toBeVisible();
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
      await control.click();
      await expect(video).toHaveJSProperty("paused", true);
      const play = page.getByRole("button", { name: VIDEO_CONTROL_LABEL.play });
      await expect(play).toBeFocused();
      await page.keyboard.press("Enter");
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
      await expect(control).toBeVisible();
    });
  }

  test.describe("with reduced motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("offers Play while the poster shows, and plays on request", async ({ page }) => {
      await open(page, "/");
      const video = page.locator("video");
      await expect(video).toHaveJSProperty("paused", true);
      await page.getByRole("button", { name: VIDEO_CONTROL_LABEL.play }).click();
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
      await expect(page.getByRole("button", { name: VIDEO_CONTROL_LABEL.pause })).toBeVisible();
    });
  });
});
