import { caseStudyPath, ROUTES, SCREEN_PATHS } from "../src/shared/routes.ts";
import { contrastRatio, parseColor } from "./support/contrast.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const WIDTHS = [320, 375, 768, 1024, 1440, 1920];

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const path of [...SCREEN_PATHS, caseStudyPath("manufacturing-product-maintenance-forecast")]) {
  test(`${path} never scrolls sideways at ${WIDTHS.join(", ")} px`, async ({ page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, path);
      await waitUntilSettled(page);
      expect(await sideways(page), `horizontal overflow at ${width} px`).toBe(0);
    }
  });
}

test.describe("at 320 px", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("the error screen fits without sideways scrolling", async ({ page, expectedErrors }) => {
    await open(page, "/");
    await page.route(/\/assets\/weare-[^/]+\.js$/, (route) => route.abort("failed"));
    expectedErrors.add(loadFailure("failed"), { url: /\/assets\/weare-/ });
    expectedErrors.add(/^Error loading route module `[^`]+`, reloading page\.\.\.$/);
    expectedErrors.add(/^TypeError: Failed to fetch dynamically imported module: /);
    await page.locator('main a[href="/weare"]').first().click();
    await expect(
      page.getByRole("heading", { name: "Unexpected Application Error!" }),
    ).toBeVisible();
    expect(await sideways(page)).toBe(0);
  });
});

test.describe("the sticky header", () => {
  for (const viewport of [
    { width: 375, height: 640 },
    { width: 1440, height: 800 },
  ]) {
    test(`never covers a focused field, forwards or backwards, at ${viewport.width} px`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await open(page, "/contact-us");
      const fields = page.locator("main form").locator("input, select, textarea");
      const count = await fields.count();
      expect(count).toBeGreaterThan(5);
      const headerBottom = async () =>
        (await page.locator("header.site-header").boundingBox())?.height ?? 0;
      const check = async () => {
        const box = await page.evaluate(() => document.activeElement?.getBoundingClientRect().top);
        expect(box).toBeGreaterThanOrEqual(await headerBottom());
      };
      // Backwards from the page's end: each field comes into view below the header.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await fields.last().focus();
      for (let index = count - 2; index >= 0; index -= 1) {
        await page.keyboard.press("Shift+Tab");
        await check();
      }
      // Forwards from the top.
      await page.evaluate(() => window.scrollTo(0, 0));
      await fields.first().focus();
      await check();
    });
  }

  for (const width of [375, 1440]) {
    test(`is opaque at ${width} px, so no text of the page shows through it`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await open(page, ROUTES.weDo);
      await page.evaluate(() => window.scrollTo(0, 600));
      const header = page.locator("header.site-header");
      const background = await header.evaluate(
        (element) => getComputedStyle(element).backgroundColor,
      );
      expect(parseColor(background).a).toBe(1);
    });
  }
});

// A line is seen apart from the colour on both sides of it at about 2:1 (a
// form field's border on navy); the same navy above and below needs one.
const DIVIDER_CONTRAST = 2;

test("the footer is divided from a navy section above it", async ({ page }) => {
  await open(page, ROUTES.weDo);
  const footer = page.locator("footer.site-footer");
  await footer.scrollIntoViewIfNeeded();
  const { above, background, borderWidth, borderColor } = await footer.evaluate((element) => {
    const style = getComputedStyle(element);
    const top = element.getBoundingClientRect().top;
    let node = document.elementFromPoint(window.innerWidth / 2, top - 2);
    let above = "";
    for (; node && !above; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      if (!/^rgba\(.*, 0\)$/.test(color)) above = color;
    }
    return {
      above,
      background: style.backgroundColor,
      borderWidth: Number.parseFloat(style.borderTopWidth),
      borderColor: style.borderTopColor,
    };
  });
  // The methodology, in the footer's own navy, ends the page.
  expect(above).toBe(background);
  expect(borderWidth).toBeGreaterThanOrEqual(1);
  expect(contrastRatio(parseColor(borderColor), parseColor(background))).toBeGreaterThanOrEqual(
    DIVIDER_CONTRAST,
  );
});

test("every image has alt text or is marked decorative, and explicit dimensions", async ({
  page,
}) => {
  for (const path of SCREEN_PATHS) {
    await open(page, path);
    await waitUntilSettled(page);
    const images = await page.locator("img").evaluateAll((imgs) =>
      imgs.map((img) => ({
        src: img.getAttribute("src"),
        alt: img.getAttribute("alt"),
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
      })),
    );
    for (const image of images) {
      expect(image.alt, `${path} ${image.src} alt`).not.toBeNull();
      expect(image.width, `${path} ${image.src} width`).toMatch(/^\d+$/);
      expect(image.height, `${path} ${image.src} height`).toMatch(/^\d+$/);
    }
  }
});
