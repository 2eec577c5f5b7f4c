import { SCREEN_PATHS } from "../src/shared/routes.ts";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

const WIDTHS = [320, 375, 768, 1024, 1440, 1920];

for (const path of SCREEN_PATHS) {
  test(`${path} never scrolls sideways at ${WIDTHS.join(", ")} px`, async ({ page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, path);
      await waitUntilSettled(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow at ${width} px`).toBe(0);
    }
  });
}

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
