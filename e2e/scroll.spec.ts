/**
 * Back and Forward return each page to where the visitor left it; a page
 * loaded afresh (a typed address, a link from another site) starts at its
 * top or at its anchor, whatever the tab showed before; a reload keeps the place.
 */
import {
  open,
  scrollsUnderWay,
  waitUntilSettled,
  watchScrolls,
  whenHydrated,
} from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** How far an anchor's target is from where the site's anchors put it: just below the sticky header. */
const offAnchor = (page: Page, id: string) =>
  page.evaluate((targetId) => {
    const target = document.getElementById(targetId);
    if (!target) return Number.NaN;
    const padding = Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop);
    return Math.round(Math.abs(target.getBoundingClientRect().top - padding));
  }, id);

/** Scrolls to the bottom of the page, and returns where that is. */
async function scrollToEnd(page: Page): Promise<number> {
  const end = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  await scrollTo(page, end);
  return end;
}

async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect.poll(() => scrollY(page)).toBe(y);
}

for (const viewport of [
  { width: 375, height: 740 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("Back after following links returns to the same place on each page", async ({ page }) => {
      await open(page, "/");
      // Home → Who We Are (a page whose lists load in the browser), from
      // wherever its link is in view.
      const toWeAre = page.locator('main a[href="/weare"]').first();
      await toWeAre.scrollIntoViewIfNeeded();
      const homeY = await scrollY(page);
      expect(homeY).toBeGreaterThan(300);
      await toWeAre.click();
      await expect(page).toHaveURL(/\/weare$/);
      await expect.poll(() => scrollY(page)).toBe(0);
      // The carousel's code has arrived: nothing above the place changes size later.
      await waitUntilSettled(page);
      await scrollTo(page, 1500);
      // Who We Are → Home again, by the logo (a new entry, at the top).
      await page.locator("header .site-header__logo").click();
      await expect(page).toHaveURL(/\/$/);
      await expect.poll(() => scrollY(page)).toBe(0);

      await page.goBack();
      await expect(page).toHaveURL(/\/weare$/);
      await expect.poll(() => scrollY(page)).toBe(1500);
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
      await expect.poll(() => scrollY(page)).toBe(homeY);
      await page.goForward();
      await expect(page).toHaveURL(/\/weare$/);
      await expect.poll(() => scrollY(page)).toBe(1500);
    });

    test("focusing a link in the sticky header does not move the page", async ({ page }) => {
      await open(page, "/weare");
      await scrollTo(page, 1500);
      const logo = page.locator("header .site-header__logo");
      await logo.focus();
      await expect(logo).toBeFocused();
      expect(await scrollY(page)).toBe(1500);
      // The next stop is in the header too (the menu's toggle or first link).
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("header") !== null)).toBe(
        true,
      );
      expect(await scrollY(page)).toBe(1500);
    });
  });
}

test.describe("a page loaded afresh in a tab that showed another", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("a typed address opens at the top", async ({ page }) => {
    await open(page, "/weserve");
    await scrollTo(page, 1500);
    await open(page, "/wedo");
    expect(await scrollY(page)).toBe(0);
    await waitUntilSettled(page);
    expect(await scrollY(page)).toBe(0);
  });

  test("a typed address with an anchor opens at its target", async ({ page }) => {
    await open(page, "/weserve");
    await scrollTo(page, 1500);
    await open(page, "/wedo#methodology");
    await expect.poll(() => offAnchor(page, "methodology")).toBeLessThan(2);
  });

  test("a link followed back from another site opens at the top", async ({ page }) => {
    await open(page, "/weserve");
    await scrollTo(page, 1500);
    await page.goto("about:blank");
    await open(page, "/wedo");
    expect(await scrollY(page)).toBe(0);
    await waitUntilSettled(page);
    expect(await scrollY(page)).toBe(0);
  });

  test("a reload keeps the place, and Back after a typed address restores it", async ({ page }) => {
    await open(page, "/weserve");
    await scrollTo(page, 1500);
    await page.reload();
    await whenHydrated(page);
    await expect.poll(() => scrollY(page)).toBe(1500);
    await open(page, "/wedo");
    await scrollTo(page, 800);
    await page.goBack();
    await expect(page).toHaveURL(/\/weserve$/);
    await expect.poll(() => scrollY(page)).toBe(1500);
    await page.goForward();
    await expect(page).toHaveURL(/\/wedo$/);
    await expect.poll(() => scrollY(page)).toBe(800);
  });
});

test.describe("at 375 px, a page loaded afresh", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("opens at the top, not at the last page's footer", async ({ page }) => {
    await open(page, "/weare");
    await waitUntilSettled(page);
    expect(await scrollToEnd(page)).toBeGreaterThan(2000);
    await open(page, "/contact-us");
    expect(await scrollY(page)).toBe(0);
  });
});

test.describe("an anchor reached from another page", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("Our Ethos lands at its section although the carousel arrives after the page", async ({
    page,
  }) => {
    await watchScrolls(page);
    await open(page, "/");
    await page.locator("header").getByRole("link", { name: "Who We Are", exact: true }).hover();
    await page.locator("header").getByRole("link", { name: "Our Ethos" }).click();
    await expect(page).toHaveURL(/\/weare#ethos$/);
    await waitUntilSettled(page);
    // At rest: no scroll under way any more, and the section where anchors put it.
    await expect
      .poll(async () =>
        (await scrollsUnderWay(page)) === 0 ? offAnchor(page, "ethos") : Number.NaN,
      )
      .toBeLessThan(2);
  });
});
