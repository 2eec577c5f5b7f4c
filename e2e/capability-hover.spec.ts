/**
 * What We Do: a capability card shows the start of its description at rest,
 * and hovering or focusing it reveals the whole description inside the card.
 * Nothing else on the page moves, and the card's number never runs into its
 * title, at the desktop widths where the cards stand four in a row. On touch
 * screens and narrow widths, where nothing can be hovered, every description
 * shows in full.
 */
import type { Locator, Page } from "@playwright/test";
import { open, waitUntilSettled } from "./support/page.ts";
import { expect, test } from "./support/test.ts";

const WIDTHS = [1024, 1280, 1440];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A box in page coordinates, so scrolling does not count as moving. */
function pageBox(locator: Locator): Promise<Box> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return {
      x: box.x + window.scrollX,
      y: box.y + window.scrollY,
      width: box.width,
      height: box.height,
    };
  });
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Starts summing the page's layout shifts (hovering is no input that would excuse them). */
async function watchLayoutShifts(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    let sum = 0;
    const add = (entries: PerformanceEntryList) => {
      for (const entry of entries) sum += (entry as PerformanceEntry & { value: number }).value;
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({ type: "layout-shift" });
    // Entries reported but not yet handed to the observer's callback count too.
    const layoutShiftSum = () => {
      add(observer.takeRecords());
      return sum;
    };
    Object.assign(window, { layoutShiftSum });
  });
  // A shift in the last frame, not reported yet, leaves the other cards' boxes
  // moved, which the test compares as well.
  return () =>
    page.evaluate(() => (window as unknown as { layoutShiftSum(): number }).layoutShiftSum());
}

/**
 * How much of a description the card paints, as a share of its height (1: all
 * of it): the card masks what lies beyond --revealed, a length or, once fully
 * revealed, 100 %. While the reveal runs, the value is neither (NaN).
 */
function revealedShare(description: Locator): Promise<number> {
  return description.evaluate((el) => {
    const style = getComputedStyle(el);
    if (style.visibility !== "visible" || Number(style.opacity) < 1) return 0;
    const revealed = style.getPropertyValue("--revealed").trim();
    const height = el.getBoundingClientRect().height;
    if (revealed === "" || revealed === "100%") return 1;
    if (!/^[\d.]+px$/.test(revealed)) return Number.NaN;
    return Math.min(1, Number.parseFloat(revealed) / height);
  });
}

/** The height of one line of an element's text. */
function lineHeight(locator: Locator): Promise<number> {
  return locator.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
}

/** Waits until no CSS transition is running. */
async function transitionsDone(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          () => document.getAnimations().filter((a) => a instanceof CSSTransition).length,
        ),
      { intervals: [50] },
    )
    .toBe(0);
}

for (const width of WIDTHS) {
  test(`at ${width} px, hovering a capability moves nothing else and keeps its number clear of its title`, async ({
    page,
  }) => {
    test.slow(); // every card, each with two fades of 300 ms and their polling
    await page.setViewportSize({ width, height: 900 });
    await open(page, "/wedo");
    await waitUntilSettled(page);
    const section = page.locator("#capabilities");
    const cards = section.locator(".capability");
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    const below = section.locator("xpath=following-sibling::*[1]");
    await expect(below).toBeVisible();

    for (let index = 0; index < count; index++) {
      const card = cards.nth(index);
      const number = card.locator(".capability__number");
      const title = card.locator(".capability__name");
      const description = card.locator(".capability__description");
      const others = [
        ...Array.from({ length: count }, (_, i) => i)
          .filter((i) => i !== index)
          .map((i) => ({ name: `card ${i + 1}`, locator: cards.nth(i) })),
        { name: "the section below", locator: below },
      ];

      // Rest: the pointer on the section's heading, the card in view, nothing moving.
      await card.scrollIntoViewIfNeeded();
      await section.locator("h2").hover();
      await transitionsDone(page);
      await expect(description).toBeVisible();
      const before = await Promise.all(others.map(({ locator }) => pageBox(locator)));
      const layoutShifts = await watchLayoutShifts(page);

      await card.hover();
      // The reveal ends with the whole description painted; then nothing else may still be running.
      await expect.poll(() => revealedShare(description), { intervals: [50] }).toBe(1);
      await transitionsDone(page);

      const label = `card ${index + 1} at ${width} px`;
      expect(await layoutShifts(), `layout shift while hovering ${label}`).toBe(0);
      const after = await Promise.all(others.map(({ locator }) => pageBox(locator)));
      others.forEach(({ name }, i) => {
        expect(after[i], `${name} while hovering ${label}`).toEqual(before[i]);
      });
      const [numberBox, titleBox] = [await pageBox(number), await pageBox(title)];
      expect(
        intersects(numberBox, titleBox),
        `number ${JSON.stringify(numberBox)} overlaps title ${JSON.stringify(titleBox)} of ${label}`,
      ).toBe(false);
    }
  });
}

for (const width of WIDTHS) {
  test(`at ${width} px, every card shows the start of its description at rest, and all of it on hover or on focus`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, "/wedo");
    const section = page.locator("#capabilities");
    await section.locator("h2").hover();
    await waitUntilSettled(page);
    const cards = section.locator(".capability");
    const descriptions = cards.locator(".capability__description");
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    const line = await lineHeight(descriptions.first());
    let shortened = 0;
    for (let index = 0; index < count; index++) {
      const description = descriptions.nth(index);
      await expect(description, `card ${index + 1} at rest`).toBeVisible();
      const height = (await description.boundingBox())?.height ?? 0;
      const share = await revealedShare(description);
      // No empty box: at least the first two lines (or the whole of a shorter text).
      expect(share * height, `card ${index + 1} at rest`).toBeGreaterThanOrEqual(
        Math.min(height, 2 * line) - 1,
      );
      if (share < 1) shortened++;
    }
    // At rest a card reads short; there is more to see on hover.
    expect(shortened).toBeGreaterThan(0);

    const [first, second] = [cards.nth(0), cards.nth(1)];
    await first.hover();
    await expect.poll(() => revealedShare(first.locator(".capability__description"))).toBe(1);
    await section.locator("h2").hover();
    await second.focus();
    await expect.poll(() => revealedShare(second.locator(".capability__description"))).toBe(1);
  });
}

for (const { name, use } of [
  {
    name: "a touch phone",
    use: { viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true },
  },
  {
    name: "a touch tablet",
    use: { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true },
  },
  { name: "a narrow window", use: { viewport: { width: 375, height: 800 } } },
]) {
  test.describe(`on ${name}`, () => {
    test.use(use);

    test("every capability shows its whole description, without a hover", async ({ page }) => {
      await open(page, "/wedo");
      await waitUntilSettled(page);
      const descriptions = page.locator("#capabilities .capability__description");
      const count = await descriptions.count();
      expect(count).toBeGreaterThan(0);
      for (let index = 0; index < count; index++) {
        await expect(descriptions.nth(index)).toBeVisible();
        expect(await revealedShare(descriptions.nth(index)), `card ${index + 1}`).toBe(1);
      }
    });
  });
}
