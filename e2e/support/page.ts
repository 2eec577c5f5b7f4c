import type { Locator, Page, Request } from "@playwright/test";
import { expect } from "./test.ts";

/**
 * Opens a path and waits until React has hydrated it, so clicks are handled:
 * the page, and the parts whose code comes later (marked data-interactive
 * until they have hydrated, like the carousel).
 */
export async function open(page: Page, path: string) {
  const pending = new Set<string>();
  const start = (request: Request) => pending.add(request.url());
  const end = (request: Request) => pending.delete(request.url());
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  try {
    const response = await page.goto(path);
    await whenHydrated(page).catch((error: Error) => {
      const waiting = [...pending].join(", ") || "none";
      throw new Error(`${error.message}\nrequests still without an answer: ${waiting}`);
    });
    await expect(page.locator('[data-interactive="false"]')).toHaveCount(0);
    return response;
  } finally {
    page.off("request", start);
    page.off("requestfinished", end);
    page.off("requestfailed", end);
  }
}

/**
 * Waits until React has hydrated the page. A loaded two-core CI machine once
 * took past 10 s to load and run a page's modules, so this one wait allows
 * 30 s (it ends as soon as the page is ready; the test's own limit is 60 s).
 */
export async function whenHydrated(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
}

/** The page itself never scrolls sideways (a wide table may, inside its own wrapper). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Asserts that `locator` shows whole within the window's width: nothing of it past either edge. */
export async function expectWithinWindowWidth(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, "the element is laid out").not.toBeNull();
  if (!box) return;
  expect({ left: box.x >= 0, right: box.x + box.width <= width }).toEqual({
    left: true,
    right: true,
  });
}

/**
 * Opens Home, then follows its link to `path` (/weserve, /wedo, /weare or
 * /contact-us) as a visitor does: the next page is rendered in the browser,
 * so its lists come from the API (the route's clientLoader), not from the
 * server's render.
 */
export async function arriveFromHome(page: Page, path: string) {
  await open(page, "/");
  await page.locator(`main a[href="${path}"]`).first().click();
}

/** What stands in for content that is still on its way: the carousel's lazily loaded code. */
const PENDING = ".leadership-carousel--placeholder";

/**
 * Waits until the page is in its final state: every list has arrived (no
 * placeholder is left) and no CSS transition (a fade-in, a flip) is running
 * or waiting to start, so what is measured next is what a visitor sees.
 */
export async function waitUntilSettled(page: Page): Promise<void> {
  await expect(page.locator(PENDING)).toHaveCount(0);
  await expect
    .poll(() =>
      page.evaluate(
        () => document.getAnimations().filter((a) => a instanceof CSSTransition).length,
      ),
    )
    .toBe(0);
}

/**
 * Keeps track of the scrolls under way in every document the page opens: a
 * scroll is under way from its first `scroll` event until its `scrollend`,
 * whether a script, a key, a wheel or scroll snapping moved it. The browser
 * has no property that says "scrolling now", so this is how a test waits
 * for rest on events. Call it before the page opens the document.
 */
export async function watchScrolls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const moving = new Set<EventTarget>();
    const note = (event: Event) =>
      event.type === "scroll"
        ? moving.add(event.target ?? document)
        : moving.delete(event.target ?? document);
    document.addEventListener("scroll", note, { capture: true, passive: true });
    document.addEventListener("scrollend", note, { capture: true, passive: true });
    // An element removed mid-scroll never ends its scroll; it no longer counts.
    const underWay = () =>
      [...moving].filter((target) => !(target instanceof Node) || target.isConnected).length;
    Object.assign(window, { scrollsUnderWay: underWay });
  });
}

/** How many scrolls are under way in the page (see watchScrolls, which must come first). */
export function scrollsUnderWay(page: Page): Promise<number> {
  return page.evaluate(() =>
    (window as unknown as { scrollsUnderWay: () => number }).scrollsUnderWay(),
  );
}

/** The outcome dialog, by its title and text. */
export function alertDialog(page: Page) {
  return page.getByRole("alertdialog");
}

/**
 * The element is wholly in the viewport. An element at a fractional offset
 * intersects by a hair under 1 (0.99999994 was seen for a detail wholly in
 * view), so "wholly" allows a thousandth: under a pixel for anything shorter
 * than 1000 px.
 */
export async function expectWhollyInView(locator: Locator): Promise<void> {
  await expect(locator).toBeInViewport({ ratio: 0.999 });
}
