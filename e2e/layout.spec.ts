import { API_PATHS, serverPath } from "../src/shared/api-paths.ts";
import type { CaseStudy } from "../src/shared/content.ts";
import { caseStudyPath, ROUTES, SCREEN_PATHS } from "../src/shared/routes.ts";
import { contrastRatio, parseColor } from "./support/contrast.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, loadFailure, type Page, test } from "./support/test.ts";

const WIDTHS = [320, 375, 768, 1024, 1440, 1920];

const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Where each visible heading's text leaves its column or meets its neighbours' text. */
function headingFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Sub-pixel rounding of text boxes, not a visible overlap.
    const TOLERANCE = 1;
    const textBox = (node: Node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect();
    };
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > TOLERANCE &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > TOLERANCE;
    const shown = (element: Element) =>
      element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
      !element.closest(".visually-hidden") &&
      element.getClientRects().length > 0;

    const faults: string[] = [];
    for (const heading of document.querySelectorAll("h1, h2, h3, h4")) {
      const parent = heading.parentElement;
      if (!parent || !shown(heading) || !heading.textContent?.trim()) continue;
      const text = textBox(heading);
      const name = `<${heading.tagName.toLowerCase()}> "${heading.textContent.trim().slice(0, 40)}"`;

      // A grid or flex item's own box is its column; its text may not run past it.
      const own = heading.getBoundingClientRect();
      if (text.left < own.left - TOLERANCE || text.right > own.right + TOLERANCE) {
        faults.push(
          `${name} spans ${Math.round(text.left)}–${Math.round(text.right)} px, its box ${Math.round(own.left)}–${Math.round(own.right)} px`,
        );
      }
      const style = getComputedStyle(parent);
      const box = parent.getBoundingClientRect();
      const column = {
        left:
          box.left +
          Number.parseFloat(style.borderLeftWidth) +
          Number.parseFloat(style.paddingLeft),
        right:
          box.right -
          Number.parseFloat(style.borderRightWidth) -
          Number.parseFloat(style.paddingRight),
      };
      if (text.left < column.left - TOLERANCE || text.right > column.right + TOLERANCE) {
        faults.push(
          `${name} spans ${Math.round(text.left)}–${Math.round(text.right)} px, its column ${Math.round(column.left)}–${Math.round(column.right)} px`,
        );
      }
      for (const sibling of parent.children) {
        if (sibling === heading || !shown(sibling) || !sibling.textContent?.trim()) continue;
        if (overlap(text, textBox(sibling))) {
          faults.push(`${name} overlaps the text of <${sibling.tagName.toLowerCase()}>`);
        }
      }
    }
    return faults;
  });
}

/**
 * The page at `path`, loaded afresh at every width from a small phone to a
 * wide screen: it never scrolls sideways, and no heading runs out of its
 * column or into the text beside it (the text of every visible h1–h4 stays
 * inside its own box, its column when it is a grid item, inside its parent's
 * content box, and clear of its siblings' text).
 */
async function checkAtEveryWidth(page: Page, path: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, path);
    await waitUntilSettled(page);
    expect(await sideways(page), `horizontal overflow on ${path} at ${width} px`).toBe(0);
    expect(await headingFaults(page), `${path} at ${width} px`).toEqual([]);
  }
}

for (const path of SCREEN_PATHS) {
  test(`${path} never scrolls sideways, and every heading stays in its column, at ${WIDTHS.join(", ")} px`, async ({
    page,
  }) => {
    await checkAtEveryWidth(page, path);
  });
}

test(`every case study's page never scrolls sideways, and every heading stays in its column, at ${WIDTHS.join(", ")} px`, async ({
  page,
  request,
}) => {
  const studies = (await (
    await request.get(serverPath(API_PATHS.caseStudies))
  ).json()) as CaseStudy[];
  expect(studies.length).toBeGreaterThan(0);
  test.slow();
  for (const study of studies) await checkAtEveryWidth(page, caseStudyPath(study.slug));
});

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
