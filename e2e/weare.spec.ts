/**
 * Who We Are (/weare): the leadership carousel and the ethos
 * flip cards, their failure states and accessibility.
 * Expectations come from CAROUSEL and the seed content, not retyped numbers.
 */
import items from "../content/items.json" with { type: "json" };
import team from "../content/team.json" with { type: "json" };
import { CAROUSEL, DIALOG, ERROR_SCREEN_HEADING } from "../src/shared/constants.ts";
import { ANCHORS } from "../src/shared/routes.ts";
import { mockApi } from "./support/api.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { arriveFromHome, open, scrollsUnderWay, watchScrolls } from "./support/page.ts";
import { expect, type Locator, loadFailure, type Page, test } from "./support/test.ts";

const TEAM_API = /\/api\/v1\/teams\/?(\?.*)?$/;
const CAROUSEL_CHUNK = /\/assets\/LeadershipCarousel-[\w-]+\.js$/;

test.beforeEach(async ({ page }) => {
  await watchScrolls(page);
});

/** The carousel layout CAROUSEL prescribes at a viewport width. */
function layoutAt(width: number): { slidesPerView: number; spaceBetween: number } {
  let layout: { slidesPerView: number; spaceBetween: number } = CAROUSEL.default;
  for (const breakpoint of CAROUSEL.breakpoints) {
    if (width >= breakpoint.minWidth) layout = breakpoint;
  }
  return layout;
}

function carousel(page: Page) {
  return page.getByRole("region", { name: "Leadership team" });
}

function slides(page: Page) {
  return carousel(page).locator('[aria-roledescription="slide"]');
}

function dots(page: Page) {
  return page.getByRole("button", { name: /^Go to slide \d+ of \d+$/ });
}

/** Opens /weare and waits until every team member is in the carousel. */
async function openWeAre(page: Page) {
  await open(page, "/weare");
  await expect(slides(page)).toHaveCount(team.length);
}

/** Indexes of the slides that lie entirely inside the track's box. */
function fullyVisibleSlides(page: Page): Promise<number[]> {
  return carousel(page).evaluate((track) => {
    const box = track.getBoundingClientRect();
    const visible: number[] = [];
    track.querySelectorAll('[aria-roledescription="slide"]').forEach((slide, index) => {
      const rect = slide.getBoundingClientRect();
      if (rect.left >= box.left - 1 && rect.right <= box.right + 1) visible.push(index);
    });
    return visible;
  });
}

async function firstVisibleSlide(page: Page): Promise<number | undefined> {
  return (await fullyVisibleSlides(page))[0];
}

/**
 * Where the carousel has come to rest: the first slide in full view and the
 * indexes of the dots marked current; null while a scroll is under way (see
 * watchScrolls). Polled (see expectRestingAt), so a press or click follows
 * the last once it has settled.
 */
async function restingPosition(page: Page): Promise<{ slide: number; dots: number[] } | null> {
  if ((await scrollsUnderWay(page)) > 0) return null;
  const slide = (await firstVisibleSlide(page)) ?? -1;
  const marked = await page
    .locator(".leadership-dot")
    .evaluateAll((all) =>
      all.flatMap((dot, index) => (dot.getAttribute("aria-current") === "true" ? [index] : [])),
    );
  return { slide, dots: marked };
}

/** Waits until the carousel rests with `slide` first in view and its dot alone marked. */
async function expectRestingAt(page: Page, slide: number): Promise<void> {
  await expect
    .poll(() => restingPosition(page), { intervals: [50] })
    .toEqual({ slide, dots: [slide] });
}

test.describe("leadership carousel layout", () => {
  const widths = [
    320,
    375,
    700,
    1100,
    1600,
    ...CAROUSEL.breakpoints.map((b) => b.minWidth).filter((w) => w > 0),
  ];
  for (const width of widths) {
    const { slidesPerView, spaceBetween } = layoutAt(width);
    test(`at ${width} px it shows ${slidesPerView} slide(s), ${spaceBetween} px apart, without page scroll`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await openWeAre(page);

      expect(await fullyVisibleSlides(page)).toHaveLength(slidesPerView);
      const gap = await slides(page)
        .first()
        .evaluate((first) => {
          const next = first.nextElementSibling;
          if (!next) return null;
          return next.getBoundingClientRect().left - first.getBoundingClientRect().right;
        });
      expect(gap).toBeCloseTo(spaceBetween, 0);

      // The track scrolls sideways inside itself; the page never does.
      const pageOverflow = await page.evaluate(() => {
        const main = document.querySelector("main");
        return {
          document: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          main: main ? main.scrollWidth - main.clientWidth : 0,
        };
      });
      expect(pageOverflow).toEqual({ document: 0, main: 0 });
      expect(await carousel(page).evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(
        team.length > slidesPerView,
      );
    });
  }
});

test("each team member from the API shows a photo, full name, job title and bio", async ({
  page,
}) => {
  expect(team.length).toBeGreaterThanOrEqual(6);
  await openWeAre(page);

  await expect(carousel(page).getByRole("heading", { level: 3 })).toHaveText(
    team.map((member) => member.fullname),
  );
  for (const [index, member] of team.entries()) {
    const slide = slides(page).nth(index);
    await expect(slide).toHaveAccessibleName(`${index + 1} of ${team.length}`);
    // The name is the heading under the photo: the photo adds no second reading of it.
    const photo = slide.locator("img");
    await expect(photo).toHaveAttribute("alt", "");
    await expect(photo).toHaveAttribute("src", `/images/pictures/${member.imagePath}`);
    await expect(photo).toHaveAttribute("width", "480");
    await expect(photo).toHaveAttribute("height", "600");
    await expect(photo).toHaveAttribute("loading", "lazy");
    await expect(slide.getByRole("heading", { level: 3 })).toHaveText(member.fullname);
    await expect(slide.getByText(member.title, { exact: true })).toBeVisible();
    await expect(slide.getByText(member.bio, { exact: true })).toBeAttached();
  }

  // The photo in view has really loaded.
  const firstPhoto = slides(page).first().locator("img");
  await expect
    .poll(() => firstPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(480);
});

for (const width of [375, 1440]) {
  test(`at ${width} px the pagination dots, arrow buttons and arrow keys move the carousel`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openWeAre(page);
    const { slidesPerView } = layoutAt(width);
    const positions = Math.max(1, team.length - slidesPerView + 1);

    await expect(dots(page)).toHaveCount(positions);
    await expect(dots(page).first()).toHaveAttribute("aria-current", "true");
    expect(await firstVisibleSlide(page)).toBe(0);

    // Clicking dot N brings slide N to the front and marks that dot alone.
    const last = positions - 1;
    for (const target of [last, 1, 0]) {
      await page
        .getByRole("button", { name: `Go to slide ${target + 1} of ${team.length}` })
        .click();
      await expectRestingAt(page, target);
    }

    // Arrow keys on the focused carousel move by one slide.
    await expect(carousel(page)).toHaveAttribute("tabindex", "0");
    await carousel(page).focus();
    await expect(carousel(page)).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expectRestingAt(page, 1);
    await page.keyboard.press("ArrowRight");
    await expectRestingAt(page, 2);
    await page.keyboard.press("ArrowLeft");
    await expectRestingAt(page, 1);

    // A press while the track still moves counts on from the slide asked for.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expectRestingAt(page, 3);

    // The scroll a press cuts short may report its end (scrollend) after the
    // press; that must not reset the count. Played in one go, so the track
    // has not moved yet when the late scrollend and the second press arrive.
    await carousel(page).evaluate((track) => {
      const press = (key: string) =>
        track.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
      press("ArrowLeft");
      track.dispatchEvent(new Event("scrollend"));
      press("ArrowLeft");
    });
    await expectRestingAt(page, 1);

    // The previous and next buttons do the same.
    await page.getByRole("button", { name: "Next slide" }).click();
    await expectRestingAt(page, 2);
    await page.getByRole("button", { name: "Previous slide" }).click();
    await page.getByRole("button", { name: "Previous slide" }).click();
    await expectRestingAt(page, 0);
    await expect(page.getByRole("button", { name: "Previous slide" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
  });
}

test.describe("on a touch screen", () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true });

  test("a horizontal swipe moves the carousel to the next slide", async ({ page }) => {
    await openWeAre(page);
    const track = carousel(page);
    await track.scrollIntoViewIfNeeded();
    const box = await track.boundingBox();
    if (!box) throw new Error("the carousel has no box");
    expect(await firstVisibleSlide(page)).toBe(0);

    const cdp = await page.context().newCDPSession(page);
    const y = Math.round(box.y + Math.min(box.height, 800 - box.y) / 2);
    const from = Math.round(box.x + box.width * 0.85);
    const to = Math.round(box.x + box.width * 0.2);
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchStart",
      touchPoints: [{ x: from, y }],
    });
    const steps = 12;
    for (let step = 1; step <= steps; step++) {
      await cdp.send("Input.dispatchTouchEvent", {
        type: "touchMove",
        touchPoints: [{ x: Math.round(from + ((to - from) * step) / steps), y }],
      });
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });

    // Scroll snapping settles the track exactly on the next slide.
    await expect.poll(() => firstVisibleSlide(page)).toBe(1);
    await expect(dots(page).nth(1)).toHaveAttribute("aria-current", "true");
    const snap = await track.evaluate((el) => {
      const style = getComputedStyle(el);
      return { type: style.scrollSnapType, overflowX: style.overflowX };
    });
    expect(snap).toEqual({ type: "x mandatory", overflowX: "auto" });
  });
});

/** Which face of an ethos card a person sees: the one hit at the card's centre. */
function shownFace(card: Locator): Promise<string> {
  return card.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    const face = hit?.closest(".ethos-card__face");
    if (face?.classList.contains("ethos-card__face--back")) return "back";
    if (face?.classList.contains("ethos-card__face--front")) return "front";
    return "none";
  });
}

function ethosCards(page: Page) {
  return page.locator(`#${ANCHORS.ethos}`).getByRole("article");
}

test.describe("ethos cards", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("show every ethos title, flip on hover and focus, and flip back", async ({ page }) => {
    expect(items.ethos.length).toBeGreaterThanOrEqual(4);
    await open(page, "/weare");
    const cards = ethosCards(page);
    await expect(cards).toHaveCount(items.ethos.length);
    for (const [index, item] of items.ethos.entries()) {
      await expect(cards.nth(index)).toHaveAccessibleName(item.name);
      await expect(cards.nth(index)).toHaveAccessibleDescription(item.description);
    }

    // Equal heights in the grid.
    const heights = await cards.evaluateAll((all) =>
      all.map((card) => Math.round(card.getBoundingClientRect().height)),
    );
    expect(new Set(heights).size).toBe(1);

    const [first, second] = [cards.nth(0), cards.nth(1)];
    const [firstItem, secondItem] = items.ethos;
    await first.scrollIntoViewIfNeeded();
    await expect.poll(() => shownFace(first)).toBe("front");
    await expect(first).not.toHaveClass(/is-flipped/);

    // Pointer enter flips (with a real 3D turn), pointer leave turns it back.
    await first.hover();
    await expect(first).toHaveClass(/is-flipped/);
    const motion = await first
      .locator(".ethos-card__inner")
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).transitionDuration));
    expect(motion).toBeGreaterThan(0.1);
    await expect.poll(() => shownFace(first)).toBe("back");
    await expect(first.getByText(String(firstItem?.description))).toBeVisible();
    await page.mouse.move(2, 2);
    await expect(first).not.toHaveClass(/is-flipped/);
    await expect.poll(() => shownFace(first)).toBe("front");

    // Focus flips, blur (moving focus on) turns it back.
    await first.focus();
    await expect(first).toHaveClass(/is-flipped/);
    await expect.poll(() => shownFace(first)).toBe("back");
    await page.keyboard.press("Tab");
    await expect(second).toBeFocused();
    await expect(second).toHaveClass(/is-flipped/);
    await expect(first).not.toHaveClass(/is-flipped/);
    await expect.poll(() => shownFace(first)).toBe("front");
    await expect.poll(() => shownFace(second)).toBe("back");
    await expect(second.getByText(String(secondItem?.description))).toBeVisible();
  });
});

test.describe("ethos cards with reduced motion", () => {
  test.use({ viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" });

  test("swap faces at once, without turning", async ({ page }) => {
    await open(page, "/weare");
    const card = ethosCards(page).first();
    await card.scrollIntoViewIfNeeded();
    await card.hover();
    await expect(card).toHaveClass(/is-flipped/);

    // Read straight away: no transition may be running.
    const state = await card.evaluate((el) => {
      const inner = el.querySelector(".ethos-card__inner");
      const front = el.querySelector(".ethos-card__face--front");
      const back = el.querySelector(".ethos-card__face--back");
      if (!inner || !front || !back) return null;
      const seconds = (node: Element) =>
        Math.max(...getComputedStyle(node).transitionDuration.split(",").map(Number.parseFloat));
      return {
        transform: getComputedStyle(inner).transform,
        longestTransition: Math.max(seconds(inner), seconds(front), seconds(back)),
        frontOpacity: getComputedStyle(front).opacity,
        backOpacity: getComputedStyle(back).opacity,
      };
    });
    expect(state).not.toBeNull();
    expect(state?.transform).toBe("none");
    expect(state?.longestTransition).toBeLessThanOrEqual(0.001);
    expect({ front: state?.frontOpacity, back: state?.backOpacity }).toEqual({
      front: "0",
      back: "1",
    });

    await page.mouse.move(2, 2);
    await expect(card).not.toHaveClass(/is-flipped/);
    expect(
      await card.locator(".ethos-card__face--back").evaluate((el) => getComputedStyle(el).opacity),
    ).toBe("0");
  });
});

test.describe("carousel with reduced motion", () => {
  test.use({ viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" });

  test("jumps to a slide at once instead of scrolling smoothly", async ({ page }) => {
    await openWeAre(page);
    await page.getByRole("button", { name: `Go to slide 3 of ${team.length}` }).click();
    // Read straight away, without waiting: a smooth scroll would still be under way.
    expect(await firstVisibleSlide(page)).toBe(2);
    await carousel(page).focus();
    await page.keyboard.press("ArrowRight");
    expect(await firstVisibleSlide(page)).toBe(3);
  });
});

test("the served page holds the team, and #leadership scrolls to it", async ({ page }) => {
  await open(page, `/weare#${ANCHORS.leadership}`);
  await expect(slides(page)).toHaveCount(team.length);
  const section = page.locator(`#${ANCHORS.leadership}`);
  await expect(section).toHaveCount(1);
  await expect
    .poll(async () => {
      const top = (await section.boundingBox())?.y ?? Number.NaN;
      const padding = await page.evaluate(() =>
        Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
      );
      return Math.abs(top - padding);
    })
    .toBeLessThan(2);
});

test("a network failure of the team list shows the Oops dialog", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure("failed"), { url: TEAM_API });
  await mockApi(page, TEAM_API, { fail: true });
  await arriveFromHome(page, "/weare");
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(DIALOG.failureTitle);
  await expect(dialog.getByText(DIALOG.somethingWrong)).toBeVisible();
  await dialog.getByRole("button", { name: DIALOG.confirm }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`#${ANCHORS.leadership}`)).toHaveCount(1);
  await expect(page.locator(".leadership-slide")).toHaveCount(0);
  // The ethos list is independent and still loads.
  await expect(ethosCards(page)).toHaveCount(items.ethos.length);
});

test("a 500 from the team list leaves the carousel empty, without a dialog", async ({
  page,
  expectedErrors,
}) => {
  expectedErrors.add(loadFailure(500), { url: TEAM_API });
  await mockApi(page, TEAM_API, { status: 500, body: { message: "boom" } });
  await arriveFromHome(page, "/weare");
  await expect(page.locator(`#${ANCHORS.leadership}`)).toHaveCount(1);
  await expect(ethosCards(page)).toHaveCount(items.ethos.length);
  await expect(page.locator(".leadership-slide")).toHaveCount(0);
  await expect(carousel(page)).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
});

test("if the carousel's code fails to load, the default error screen shows", async ({
  page,
  expectedErrors,
}) => {
  // React reports the error it caught, and React Router the error it rendered.
  expectedErrors.add(/^TypeError: Failed to fetch dynamically imported module: /);
  expectedErrors.add(
    /^React Router caught the following error during render TypeError: Failed to fetch dynamically imported module: /,
  );
  const aborted = await mockApi(page, CAROUSEL_CHUNK, { fail: true });
  // Reached in the browser, so the failure comes from rendering the
  // carousel, not from hydrating a page.
  await arriveFromHome(page, "/weare");
  await expect(page.getByRole("heading", { name: ERROR_SCREEN_HEADING })).toBeVisible();
  await expect(page.getByText(/Failed to fetch dynamically imported module/)).toBeVisible();
  expect(aborted.length).toBeGreaterThan(0);
  // Chromium logs each aborted request.
  expectedErrors.add(loadFailure("failed"), { url: CAROUSEL_CHUNK, times: aborted.length });
});

test("the carousel's code is a separate chunk, loaded after the page", async ({ page }) => {
  const chunks: string[] = [];
  page.on("request", (request) => {
    if (CAROUSEL_CHUNK.test(request.url())) chunks.push(request.url());
  });
  const html = await (await page.request.get("/weare")).text();
  expect(html).not.toContain("LeadershipCarousel");
  await openWeAre(page);
  expect(chunks.length).toBeGreaterThan(0);
});

test("/weare has no accessibility violations, with a card flipped too", async ({ page }) => {
  await openWeAre(page);
  await expect(ethosCards(page)).toHaveCount(items.ethos.length);
  await expectNoAxeViolations(page);
  await ethosCards(page).nth(1).focus();
  await expect(ethosCards(page).nth(1)).toHaveClass(/is-flipped/);
  await expectNoAxeViolations(page);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("/weare has no accessibility violations", async ({ page }) => {
    await openWeAre(page);
    await expect(ethosCards(page)).toHaveCount(items.ethos.length);
    await expectNoAxeViolations(page);
  });
});
