/**
 * What We Do: hovering a capability card reveals its description inside the
 * card. Nothing else on the page moves, and the card's number never runs into
 * its title, at the desktop widths where the cards stand four in a row.
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
    const shifts = { sum: 0 };
    Object.assign(window, { hoverShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        shifts.sum += (entry as PerformanceEntry & { value: number }).value;
    }).observe({ type: "layout-shift" });
  });
  return async () => {
    // Two frames, so a shift of the last frame has been reported.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    return page.evaluate(
      () => (window as unknown as { hoverShifts: { sum: number } }).hoverShifts.sum,
    );
  };
}

/** Polls an element's computed opacity until it is `value` (the end of its fade). */
async function opacityReaches(locator: Locator, value: string): Promise<void> {
  await expect
    .poll(() => locator.evaluate((el) => getComputedStyle(el).opacity), { intervals: [50] })
    .toBe(value);
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
      await opacityReaches(description, "0");
      const before = await Promise.all(others.map(({ locator }) => pageBox(locator)));
      const layoutShifts = await watchLayoutShifts(page);

      await card.hover();
      // The fade ends when the description is fully opaque; then nothing else may still be running.
      await opacityReaches(description, "1");
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
