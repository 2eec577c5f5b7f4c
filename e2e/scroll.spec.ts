/** Back and Forward return each page to where the visitor left it (issue 8, point 5). */
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, type Page, test } from "./support/test.ts";

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

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
